import { z } from 'zod';
import type { EngineType } from '../../endpoints/types.js';
import { ENGINE_METRIC_MAPPINGS, type EngineMetricMapping, type MetricSelector } from '../../model-metrics/engine-mappings.js';
import { definePlugin } from '../../registry/types.js';
import type { Plugin } from '../../scheduling/plugins.js';
import { parseMetricSpec } from './metric-spec.js';

/**
 * Type of llm-d's metrics extractor. @public
 * @category Built-in plugins
 */
export const CORE_METRICS_EXTRACTOR = 'core-metrics-extractor';

/**
 * The upstream (Gateway API Inference Extension) name of the same extractor, accepted as an alias. @public
 * @category Built-in plugins
 */
export const MODEL_SERVER_PROTOCOL_METRICS = 'model-server-protocol-metrics';

const spec = z.string();

/**
 * One `engineConfigs[]` entry, with llm-d's field names. @public
 * @category Built-in plugins
 */
export const engineConfigParameters = z.strictObject({
  name: z.string().min(1).refine((n) => n !== 'default', { error: '"default" is reserved' }),
  queuedRequestsSpec: spec.default(''),
  runningRequestsSpec: spec.default(''),
  kvUsageSpec: spec.default(''),
  loraSpec: spec.default(''),
  loraLoadedSpec: spec.optional(),
  loraGPULoadedSpec: spec.optional(),
  loraGPUSlotsSpec: spec.optional(),
  cacheInfoSpec: spec.default(''),
  cacheBlockSizeLabelName: z.string().optional(),
  cacheNumBlocksLabelName: z.string().optional(),
  cacheBlockSizeSpec: spec.optional(),
  cacheNumBlocksSpec: spec.optional(),
  customMetrics: z.array(z.strictObject({ attributeKey: z.string().min(1), metricSpec: z.string().min(1) })).optional(),
});

/**
 * Parameters of `core-metrics-extractor` (llm-d names): `engineLabelKey`, `defaultEngine`
 * (default `vllm`; must name a built-in or configured engine) and `engineConfigs`, each of which
 * replaces the built-in mapping of that engine as a whole (an empty spec disables that metric).
 * @public
 * @category Built-in plugins
 */
export const coreMetricsExtractorParameters = z.strictObject({
  engineLabelKey: z.string().min(1).optional(),
  defaultEngine: z.string().min(1).default('vllm'),
  engineConfigs: z.array(engineConfigParameters).default([]),
});

/**
 * Parsed `core-metrics-extractor` parameters. @public
 * @category Built-in plugins
 */
export type CoreMetricsExtractorParams = z.output<typeof coreMetricsExtractorParameters>;

/**
 * Parsed `engineConfigs[]` entry. @public
 * @category Built-in plugins
 */
export type EngineConfigParams = z.output<typeof engineConfigParameters>;

/**
 * What an extractor configures: mapping overrides for the engines Switchyard knows (pass them to
 * `MetricsScraper`'s `mappings`), plus the names of configured engines it cannot map.
 * @public
 * @category Built-in plugins
 */
export interface ExtractorSettings {
  /** Pod label naming the engine (undefined: Switchyard's default labels). */
  readonly engineLabelKey: string | undefined;
  /** Engine assumed for unlabelled endpoints. */
  readonly defaultEngine: string;
  /** Mapping overrides per known engine type. */
  readonly mappings: Partial<Record<EngineType, EngineMetricMapping>>;
  /** `engineConfigs` names outside Switchyard's engine types (accepted, not used for scraping). */
  readonly unmappedEngines: readonly string[];
}

/**
 * A configured metrics extractor (settings only; scraping is done by `MetricsScraper`).
 * @public
 * @category Built-in plugins
 */
export interface MetricsExtractor extends Plugin {
  /** The effective extractor settings. */
  readonly settings: ExtractorSettings;
}

const one = (text: string | undefined): readonly MetricSelector[] => {
  const s = text === undefined ? undefined : parseMetricSpec(text);
  return s === undefined ? [] : [s];
};

/**
 * The {@link EngineMetricMapping} an `engineConfigs[]` entry stands for.
 * @throws Error naming the malformed spec
 * @public
 */
export function engineMappingFromConfig(c: EngineConfigParams): EngineMetricMapping {
  const info = c.cacheInfoSpec === '' ? undefined : parseMetricSpec(c.cacheInfoSpec);
  return {
    waiting: one(c.queuedRequestsSpec),
    running: one(c.runningRequestsSpec),
    kvUsage: one(c.kvUsageSpec),
    loraInfo: one(c.loraSpec),
    cacheInfo: info === undefined ? [] : [{ ...info, blockSizeLabel: c.cacheBlockSizeLabelName ?? 'block_size', numBlocksLabel: c.cacheNumBlocksLabelName ?? 'num_gpu_blocks' }],
    cacheBlockSize: one(c.cacheBlockSizeSpec),
    cacheNumBlocks: one(c.cacheNumBlocksSpec),
  };
}

const KNOWN_ENGINES = new Set<string>(Object.keys(ENGINE_METRIC_MAPPINGS));
// llm-d also ships `atom` and `triton` (non-LLM) mappings that Switchyard has no engine type for.
const UPSTREAM_BUILTIN_ENGINES = new Set<string>([...KNOWN_ENGINES, 'atom', 'triton']);

/**
 * The settings a parameters object stands for.
 * @throws Error when `defaultEngine` is neither built in nor configured, or a spec is malformed
 * @public
 */
export function extractorSettings(p: CoreMetricsExtractorParams): ExtractorSettings {
  const mappings: Partial<Record<EngineType, EngineMetricMapping>> = {};
  const unmapped: string[] = [];
  const seen = new Set<string>();
  for (const c of p.engineConfigs) {
    if (seen.has(c.name)) throw new Error(`engineConfigs: engine "${c.name}" is configured twice`);
    seen.add(c.name);
    const mapping = engineMappingFromConfig(c);
    if (KNOWN_ENGINES.has(c.name)) mappings[c.name as EngineType] = mapping;
    else unmapped.push(c.name);
  }
  if (!seen.has(p.defaultEngine) && !UPSTREAM_BUILTIN_ENGINES.has(p.defaultEngine)) {
    throw new Error(`defaultEngine "${p.defaultEngine}" is neither a built-in engine nor in engineConfigs`);
  }
  return { engineLabelKey: p.engineLabelKey, defaultEngine: p.defaultEngine, mappings, unmappedEngines: unmapped };
}

/**
 * True when `p` is a {@link MetricsExtractor}. @public
 * @category Built-in plugins
 */
export function isMetricsExtractor(p: Plugin): p is MetricsExtractor {
  return (p.type === CORE_METRICS_EXTRACTOR || p.type === MODEL_SERVER_PROTOCOL_METRICS) && typeof (p as Partial<MetricsExtractor>).settings === 'object';
}

const extractorOf = (type: string) =>
  definePlugin({
    type,
    description: 'Data-layer extractor: engine metric mappings for the metrics source.',
    parameters: coreMetricsExtractorParameters,
    create: (p, ctx): MetricsExtractor => ({ type, name: ctx.name, settings: extractorSettings(p) }),
  });

/**
 * `core-metrics-extractor`: llm-d's model-server metrics extractor (engine mappings). @public
 * @category Built-in plugins
 */
export const coreMetricsExtractorPlugin = extractorOf(CORE_METRICS_EXTRACTOR);

/**
 * `model-server-protocol-metrics`: the upstream name of {@link coreMetricsExtractorPlugin}. @public
 * @category Built-in plugins
 */
export const modelServerProtocolMetricsPlugin = extractorOf(MODEL_SERVER_PROTOCOL_METRICS);
