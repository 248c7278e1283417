import { z } from 'zod';
import { isMetricsExtractor, type ExtractorSettings } from '../plugins/data-layer/core-metrics-extractor.js';
import { isDcgmDataSource } from '../plugins/data-layer/dcgm-data-source.js';
import { isDcgmExtractor } from '../plugins/data-layer/dcgm-extractor.js';
import { isModelsDataExtractor } from '../plugins/data-layer/models-data-extractor.js';
import { isModelsDataSource } from '../plugins/data-layer/models-data-source.js';
import { isMulticlusterMetricsDataSource } from '../plugins/data-layer/multicluster-metrics-data-source.js';
import { isMulticlusterMetricsExtractor } from '../plugins/data-layer/multicluster-metrics-extractor.js';
import { isEndpointDiscovery } from '../plugins/discovery/endpoint-discovery.js';
import { isK8sNotificationSource } from '../plugins/data-layer/k8s-notification-source.js';
import { isMetricsDataSource, metricsDataSourceParameters, metricsSourceSettings, type MetricsSourceSettings } from '../plugins/data-layer/metrics-data-source.js';
import type { EndpointSpec } from '../endpoints/types.js';
import type { EndpointPool } from '../endpoints/pool.js';
import type { DiscoveryTarget } from '../plugins/discovery/endpoint-discovery.js';
import type { Plugin } from '../scheduling/plugins.js';
import { DEFAULT_STALENESS, type StalenessSettings } from '../model-metrics/staleness.js';
import { positiveDurationMs } from '../saturation/params.js';
import { durationSchema } from './duration.js';
import { configError, invalid } from './issues.js';

const refSchema = z.strictObject({ pluginRef: z.string().min(1) });

/**
 * Strict schema of the `dataLayer` block: llm-d's field names, plus `stalenessPolicy`
 * (`saturated` | `exclude` | `ignore`) and `metricsStalenessThreshold` (a duration, llm-d's
 * `--metrics-staleness-threshold`), see `StalenessPolicy`.
 * @public
 * @category Configuration
 */
export const dataLayerSchema = z.strictObject({
  injectDefaults: z.boolean().optional(),
  sources: z.array(z.strictObject({ pluginRef: z.string().min(1), extractors: z.array(refSchema).default([]) })).default([]),
  discovery: refSchema.optional(),
  stalenessPolicy: z.enum(['saturated', 'exclude', 'ignore']).default(DEFAULT_STALENESS.policy),
  metricsStalenessThreshold: positiveDurationMs.default(DEFAULT_STALENESS.thresholdMs),
  /** llm-d's peer discovery hook (no in-tree implementation there either). */
  peerDiscovery: refSchema.optional(),
  /** llm-d's cross-replica state syncer plugin (none registered in-tree). */
  crossReplicaSyncerPluginRef: z.string().optional(),
  /** How often cross-replica state is published (llm-d default 200ms). */
  crossReplicaSyncInterval: durationSchema.optional(),
});

/**
 * The data layer's base tick: sync intervals are rounded up to a multiple of it, as llm-d does. @public
 * @category Configuration
 */
export const DATA_LAYER_TICK_MS = 50;

/**
 * `dataLayer` fields llm-d accepts that this loader passes through without acting on them.
 * @internal
 */
export const DATA_LAYER_NOT_ACTED_ON: Readonly<Record<string, string>> = {
  peerDiscovery: 'no peer discovery plugin exists (llm-d registers none in-tree either)',
  crossReplicaSyncerPluginRef: 'cross-replica state goes through the shared-state seam, not a syncer plugin',
};

/**
 * One metrics source with the extractor settings wired to it: everything an adapter needs to
 * build a `MetricsScraper` (`path`, `intervalMs`, `mappings`).
 * @public
 * @category Configuration
 */
export interface MetricsScrapeSettings extends MetricsSourceSettings {
  /** Name of the `metrics-data-source` instance (undefined for the built-in default). */
  readonly source: string | undefined;
  /** Names of the extractor instances wired to the source. */
  readonly extractors: readonly string[];
  /** Engine mapping overrides merged from those extractors (later ones win per engine). */
  readonly mappings: ExtractorSettings['mappings'];
}

/**
 * The effective data layer of a loaded config.
 * @public
 * @category Configuration
 */
export interface DataLayerSettings {
  /** Every metrics source with its extractors, in `dataLayer.sources` (else `plugins`) order. */
  readonly metricsSources: readonly MetricsScrapeSettings[];
  /** The source to scrape with: the first one, or llm-d's default (`http`, `/metrics`, base tick). */
  readonly scrape: MetricsScrapeSettings;
  /** `dataLayer.discovery.pluginRef` when set: an endpoint discovery plugin the adapters start (`startDiscovery`). */
  readonly discovery: string | undefined;
  /** What the picker does with candidates whose metrics are missing or stale. */
  readonly staleness: StalenessSettings;
  /**
   * `dataLayer.crossReplicaSyncInterval` in ms, rounded up to the 50 ms tick; undefined when not
   * set (shared state then syncs every 200 ms, llm-d's default).
   */
  readonly crossReplicaSyncIntervalMs: number | undefined;
  /** `dataLayer.crossReplicaSyncerPluginRef` as written. */
  readonly crossReplicaSyncer: string | undefined;
}

const DEFAULT_SCRAPE: MetricsScrapeSettings = {
  ...metricsSourceSettings(metricsDataSourceParameters.parse({})),
  source: undefined,
  extractors: [],
  mappings: {},
};

function merge(source: Plugin & { settings: MetricsSourceSettings }, extractors: readonly (Plugin & { settings: ExtractorSettings })[]): MetricsScrapeSettings {
  const mappings: ExtractorSettings['mappings'] = {};
  for (const e of extractors) Object.assign(mappings, e.settings.mappings);
  return { ...source.settings, source: source.name, extractors: extractors.map((e) => e.name), mappings };
}

/**
 * Validates the `dataLayer` block against the loaded plugins and resolves the scrape settings.
 * Without `dataLayer.sources`, every `metrics-data-source` instance is wired to every metrics
 * extractor instance (what llm-d's default injection does for configs that only list them).
 * @throws SwitchyardError `CONFIG_INVALID` naming the path of a bad field or undefined reference
 * @internal
 */
export function resolveDataLayer(raw: Record<string, unknown> | undefined, plugins: ReadonlyMap<string, Plugin>): DataLayerSettings {
  const parsed = dataLayerSchema.safeParse(raw ?? {});
  if (!parsed.success) throw configError(parsed.error.issues, raw, ['dataLayer'], dataLayerSchema);
  const dl = parsed.data;
  const lookup = (path: (string | number)[], ref: string): Plugin => {
    const p = plugins.get(ref);
    if (p === undefined) throw invalid(path, `plugin "${ref}" is not defined in plugins`);
    return p;
  };
  const metricsSources: MetricsScrapeSettings[] = [];
  if (dl.sources.length > 0) {
    dl.sources.forEach((s, i) => {
      const source = lookup(['dataLayer', 'sources', i, 'pluginRef'], s.pluginRef);
      const extractors = s.extractors.map((e, j) => lookup(['dataLayer', 'sources', i, 'extractors', j, 'pluginRef'], e.pluginRef));
      if (isMetricsDataSource(source)) metricsSources.push(merge(source, extractors.filter(isMetricsExtractor)));
      if (isDcgmDataSource(source)) source.attachExtractors(extractors);
      if (isMulticlusterMetricsDataSource(source)) source.attachExtractors(extractors);
      if (isModelsDataSource(source)) source.attachExtractors(extractors);
      if (isK8sNotificationSource(source)) source.attachExtractors(extractors);
    });
    // A models extractor the document does not wire (one `models-responder` created) is fed by
    // the first models source, so listing the responder alone is enough, as in llm-d.
    const all = [...plugins.values()];
    const wired = new Set(dl.sources.flatMap((s) => s.extractors.map((e) => e.pluginRef)));
    const loose = all.filter((p) => isModelsDataExtractor(p) && !wired.has(p.name));
    const firstModels = all.find(isModelsDataSource);
    if (loose.length > 0 && firstModels !== undefined) firstModels.attachExtractors(loose);
  } else {
    const all = [...plugins.values()];
    const extractors = all.filter(isMetricsExtractor);
    for (const source of all.filter(isMetricsDataSource)) metricsSources.push(merge(source, extractors));
    const gpuExtractors = all.filter(isDcgmExtractor);
    for (const source of all.filter(isDcgmDataSource)) source.attachExtractors(gpuExtractors);
    const clusterExtractors = all.filter(isMulticlusterMetricsExtractor);
    for (const source of all.filter(isMulticlusterMetricsDataSource)) source.attachExtractors(clusterExtractors);
    const modelExtractors = all.filter(isModelsDataExtractor);
    for (const source of all.filter(isModelsDataSource)) source.attachExtractors(modelExtractors);
    // An extractor listed without a source configures the default source.
    if (metricsSources.length === 0 && extractors.length > 0) {
      const mappings: ExtractorSettings['mappings'] = {};
      for (const e of extractors) Object.assign(mappings, e.settings.mappings);
      metricsSources.push({ ...DEFAULT_SCRAPE, extractors: extractors.map((e) => e.name), mappings });
    }
  }
  // The adapters start the discovery plugin (`startDiscovery`) against their pool; here it only
  // has to exist and be one, as llm-d's loader checks.
  if (dl.discovery !== undefined) {
    const d = lookup(['dataLayer', 'discovery', 'pluginRef'], dl.discovery.pluginRef);
    if (!isEndpointDiscovery(d)) throw invalid(['dataLayer', 'discovery', 'pluginRef'], `plugin "${d.name}" (type ${d.type}) is not an endpoint discovery plugin`);
  }
  const staleness = { policy: dl.stalenessPolicy, thresholdMs: dl.metricsStalenessThreshold };
  const interval = dl.crossReplicaSyncInterval;
  if (interval !== undefined && !(interval > 0)) throw invalid(['dataLayer', 'crossReplicaSyncInterval'], `expected a positive duration, got ${String(raw?.['crossReplicaSyncInterval'])}`);
  return {
    metricsSources,
    scrape: metricsSources[0] ?? DEFAULT_SCRAPE,
    discovery: dl.discovery?.pluginRef,
    staleness,
    crossReplicaSyncIntervalMs: interval === undefined ? undefined : Math.ceil(interval / DATA_LAYER_TICK_MS) * DATA_LAYER_TICK_MS,
    crossReplicaSyncer: dl.crossReplicaSyncerPluginRef,
  };
}

/**
 * An endpoint as a metrics source scrapes it: the source's `port` applies to an endpoint without a
 * `metricsPort` of its own.
 * @public
 */
export function withScrapePort(spec: EndpointSpec, scrape: MetricsScrapeSettings): EndpointSpec {
  return spec.metricsPort === undefined && scrape.port !== undefined ? { ...spec, metricsPort: scrape.port } : spec;
}

/**
 * The discovery target an adapter gives `startDiscovery`: its endpoint pool, with the metrics
 * source's `port` applied as to configured endpoints; failed re-syncs go to `log`.
 * @internal
 */
export function poolDiscoveryTarget(pool: EndpointPool, scrape: MetricsScrapeSettings, log: (line: string) => void): DiscoveryTarget {
  return {
    upsert: (spec) => void pool.upsert(withScrapePort(spec, scrape)),
    remove: (id) => void pool.remove(id),
    onError: (error) => { log(`endpoint discovery: ${error.message} (keeping the previous endpoints)`); },
  };
}
