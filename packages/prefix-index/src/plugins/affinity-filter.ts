import {
  Attributes,
  definePlugin,
  SwitchyardError,
  type CycleContext,
  type Endpoint,
  type Filter,
  type PluginDefinition,
  type SchedulingRequest,
} from '@switchyard/core';
import { z } from 'zod';
import { matchInfoConsumes, readMatchInfo } from './attributes.js';

/**
 * Type name of the prefix-cache affinity filter. @public
 * @category Plugins
 */
export const PREFIX_CACHE_AFFINITY_FILTER = 'prefix-cache-affinity-filter';

/** llm-d's default peak prefill throughput (tokens/s; Qwen 32B on 2×H100, TP 2). */
const DEFAULT_PEAK_PREFILL_THROUGHPUT = 15928;

/**
 * Parameters of `prefix-cache-affinity-filter`, decoded strictly with llm-d's names. Its
 * calibration-record parameters are accepted, but records are not read: the throughput is
 * `peakPrefillThroughput` or the default, and `prefillCalibrationRequired: true` without an
 * explicit `peakPrefillThroughput` is a config error (llm-d fails startup when it cannot apply the
 * record).
 * @public
 * @category Plugins
 */
export const affinityFilterParameters = z.strictObject({
  /** Share of the prompt an endpoint must hold to be sticky. */
  affinityThreshold: z.number().min(0).max(1).default(0.8),
  /** Probability of keeping every endpoint (exploration). */
  explorationProbability: z.number().min(0).max(1).default(0),
  /** Largest TTFT a sticky endpoint may cost over the best other one, ms; 0 turns the load gate off (llm-d). */
  maxTTFTPenaltyMs: z.number().min(0).default(18000),
  /**
   * `prefillThroughput` (in-flight tokens / peak throughput) or `latencyPredictor` (the
   * predicted-latency attribute; `predictedLatency` and `predicted` are accepted spellings).
   */
  ttftSource: z.enum(['prefillThroughput', 'latencyPredictor', 'predictedLatency', 'predicted']).default('prefillThroughput'),
  /** Peak prefill throughput, tokens per second (default 15928); 0 is allowed only while nothing reads it. */
  peakPrefillThroughput: z.number().min(0).optional(),
  /** Path of an llm-d calibration record: accepted, not read. */
  prefillCalibrationFile: z.string().optional(),
  /** Fingerprint the calibration record must match: accepted, not read. */
  prefillCalibrationFingerprint: z.string().optional(),
  /** Fail instead of falling back to the default throughput when no calibration applies. */
  prefillCalibrationRequired: z.boolean().default(false),
  /** Read the match info of this producer instead of the shared attribute. */
  prefixMatchInfoProducerName: z.string().optional(),
  /** Accepted, ignored: the predicted latency is read from the one `predicted-latency` attribute. */
  latencyPredictionInfoProducerName: z.string().optional(),
  /** Accepted, ignored: in-flight tokens are read from the endpoint, which counts every dispatch. */
  inFlightLoadProducerName: z.string().optional(),
}).refine((p) => !(p.peakPrefillThroughput === 0 && p.maxTTFTPenaltyMs > 0 && p.ttftSource === 'prefillThroughput'), {
  error: 'must be > 0 when ttftSource is prefillThroughput and maxTTFTPenaltyMs > 0',
  path: ['peakPrefillThroughput'],
});

/**
 * Parsed parameters of `prefix-cache-affinity-filter`.
 * @public
 * @category Plugins
 */
export type AffinityFilterParams = z.output<typeof affinityFilterParameters>;

/**
 * Options of {@link createAffinityFilter} (defaults as in the config).
 * @public
 * @category Plugins
 */
export interface AffinityFilterOptions {
  /** Share of the prompt an endpoint must hold to be sticky (0.8). */
  readonly affinityThreshold?: number;
  /** Probability of keeping every endpoint (0). */
  readonly explorationProbability?: number;
  /** Largest TTFT penalty of stickiness, ms (18000). */
  readonly maxTTFTPenaltyMs?: number;
  /** TTFT source (`prefillThroughput`). */
  readonly ttftSource?: 'prefillThroughput' | 'latencyPredictor' | 'predictedLatency' | 'predicted';
  /** Peak prefill throughput, tokens/s (15928). */
  readonly peakPrefillThroughput?: number | undefined;
  /** Producer whose match info to read. */
  readonly prefixMatchInfoProducerName?: string | undefined;
}

/**
 * Creates a `prefix-cache-affinity-filter`: keeps only the endpoints holding at least
 * `affinityThreshold` of the prompt ("sticky"), so a conversation stays where its cache is. It
 * keeps everyone when there is at most one endpoint, with probability `explorationProbability`,
 * when nothing is sticky, or when the best sticky endpoint's TTFT exceeds the best non-sticky
 * one's by more than `maxTTFTPenaltyMs` (the load gate that stops a hot prefix from
 * monopolising one endpoint).
 * @public
 * @category Plugins
 */
export function createAffinityFilter(name: string, options: AffinityFilterOptions = {}): Filter {
  const p = affinityFilterParameters.parse(options);
  const peak = p.peakPrefillThroughput || DEFAULT_PEAK_PREFILL_THROUGHPUT;
  const ttft = (request: SchedulingRequest, e: Endpoint): number => {
    if (p.ttftSource !== 'prefillThroughput') {
      const predicted = request.attributes.get(Attributes.predictedLatency)?.get(e.id)?.ttftMs;
      if (predicted !== undefined) return predicted;
    }
    return (e.inFlightTokens / peak) * 1000;
  };
  return {
    type: PREFIX_CACHE_AFFINITY_FILTER,
    name,
    consumes: matchInfoConsumes(p.prefixMatchInfoProducerName),
    filter(ctx: CycleContext, request: SchedulingRequest, endpoints: readonly Endpoint[]): readonly Endpoint[] {
      if (endpoints.length <= 1) return endpoints;
      if (p.explorationProbability > 0 && ctx.random() < p.explorationProbability) return endpoints;
      const info = readMatchInfo(request, p.prefixMatchInfoProducerName);
      if (info === undefined) return endpoints;
      const sticky: Endpoint[] = [];
      let bestSticky = Infinity;
      let bestOther = Infinity;
      for (const e of endpoints) {
        const m = info.get(e.id);
        const t = ttft(request, e);
        if (m !== undefined && m.totalBlocks > 0 && m.matchBlocks / m.totalBlocks >= p.affinityThreshold) {
          sticky.push(e);
          if (t < bestSticky) bestSticky = t;
        } else if (t < bestOther) {
          bestOther = t;
        }
      }
      if (sticky.length === 0) return endpoints;
      // llm-d: a zero penalty turns the load gate off (stickiness is never broken for load).
      if (p.maxTTFTPenaltyMs > 0 && bestOther !== Infinity && bestSticky - bestOther > p.maxTTFTPenaltyMs) return endpoints;
      return sticky;
    },
  };
}

/**
 * Plugin definition of `prefix-cache-affinity-filter`.
 * @public
 * @category Plugins
 */
export const affinityFilterDefinition: PluginDefinition<AffinityFilterParams> = definePlugin({
  type: PREFIX_CACHE_AFFINITY_FILTER,
  description: 'Keeps endpoints that hold most of the prompt, unless that costs too much TTFT (or while exploring).',
  parameters: affinityFilterParameters,
  consumes: matchInfoConsumes(undefined),
  create: (p, ctx) => {
    if (p.prefillCalibrationRequired && p.peakPrefillThroughput === undefined && p.ttftSource === 'prefillThroughput') {
      throw new SwitchyardError('CONFIG_INVALID', 'prefillCalibrationRequired: calibration records are not read here; set peakPrefillThroughput explicitly');
    }
    return createAffinityFilter(ctx.name, p);
  },
});
