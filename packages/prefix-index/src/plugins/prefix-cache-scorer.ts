import {
  PREFIX_CACHE_SCORER,
  definePlugin,
  type CycleContext,
  type Endpoint,
  type PluginDefinition,
  type PrefixMatchInfo,
  type ScoreMap,
  type Scorer,
  type SchedulingRequest,
} from '@switchyard/core';
import { z } from 'zod';
import { ApproximatePrefixProducer, approximateOptionsOf, approximateProducerParameters } from './approximate-producer.js';
import { matchInfoConsumes, readMatchInfo } from './attributes.js';
import { CandidateMatchMap } from './candidate-match-map.js';
import type { PrefixPluginEnv } from './env.js';

// The type name is core's constant (core's default weights name it), re-exported so that one
// name is one object in both packages.
export { PREFIX_CACHE_SCORER };

/** Parameters that turn on llm-d's legacy mode (a scorer with its own built-in index). */
const LEGACY_INDEX_KEYS = ['blockSize', 'blockSizeTokens', 'maxPrefixBlocksToMatch', 'maxPrefixTokensToMatch', 'lruCapacityPerServer', 'autoTune'] as const;

/**
 * Parameters of `prefix-cache-scorer`, decoded strictly. Every name llm-d has used is accepted:
 * `matchLengthWeight`/`matchLengthScaleTokens` and their newer spellings
 * `prefixLengthWeight`/`maxModelLen` (give one of each pair), and the legacy index parameters
 * (`blockSize`, `blockSizeTokens`, `maxPrefixBlocksToMatch`, `maxPrefixTokensToMatch`,
 * `lruCapacityPerServer`, `autoTune`): with any of them the scorer carries its own approximate
 * index, as llm-d's scorer did before producers existed.
 * @public
 * @category Plugins
 */
export const prefixCacheScorerParameters = z
  .strictObject({
    /** Weight w of the absolute match-length term, in [0, 1] (default 0). */
    matchLengthWeight: z.number().min(0).max(1).optional(),
    /** llm-d's newer name for `matchLengthWeight`. */
    prefixLengthWeight: z.number().min(0).max(1).optional(),
    /** Tokens S at which the absolute term saturates (default 8192). */
    matchLengthScaleTokens: z.number().positive().optional(),
    /** llm-d's newer name for `matchLengthScaleTokens` (the model's context length). */
    maxModelLen: z.number().int().positive().optional(),
    /** Read the match info of this producer instead of the shared attribute. */
    prefixMatchInfoProducerName: z.string().optional(),
    /** Legacy built-in index: character block size (deprecated). */
    blockSize: approximateProducerParameters.shape.blockSize,
    /** Legacy built-in index: block size in tokens. */
    blockSizeTokens: z.number().int().min(0).optional(),
    /** Legacy built-in index: auto-tune from engine metrics. */
    autoTune: z.boolean().optional(),
    /** Legacy built-in index: token cap. */
    maxPrefixTokensToMatch: z.number().int().min(0).optional(),
    /** Legacy built-in index: block cap. */
    maxPrefixBlocksToMatch: z.number().int().min(0).optional(),
    /** Legacy built-in index: per-endpoint capacity. */
    lruCapacityPerServer: z.number().int().min(0).optional(),
  })
  .superRefine((p, ctx) => {
    if (p.matchLengthWeight !== undefined && p.prefixLengthWeight !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['prefixLengthWeight'], message: 'give matchLengthWeight or prefixLengthWeight (the same setting), not both' });
    }
    if (p.matchLengthScaleTokens !== undefined && p.maxModelLen !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['maxModelLen'], message: 'give matchLengthScaleTokens or maxModelLen (the same setting), not both' });
    }
  });

/**
 * Parsed parameters of `prefix-cache-scorer`.
 * @public
 * @category Plugins
 */
export type PrefixCacheScorerParams = z.output<typeof prefixCacheScorerParameters>;

/**
 * The prefix-cache score of one endpoint: `w·min(1, m·bs/S)² + (1−w)·m/total`, 0 without info or
 * with an empty prompt.
 * @public
 * @category Plugins
 */
export function prefixCacheScore(info: PrefixMatchInfo | undefined, matchLengthWeight: number, matchLengthScaleTokens: number): number {
  if (info === undefined || info.totalBlocks === 0) return 0;
  const m = info.matchBlocks;
  const abs = Math.min(1, (m * info.blockSizeTokens) / matchLengthScaleTokens);
  return matchLengthWeight * abs * abs + (1 - matchLengthWeight) * (m / info.totalBlocks);
}

/**
 * Creates a `prefix-cache-scorer` instance reading match info (optionally a named producer's).
 * @public
 * @category Plugins
 */
export function createPrefixCacheScorer(name: string, matchLengthWeight = 0, matchLengthScaleTokens = 8192, producerName?: string): Scorer {
  const scoreInto = (_ctx: CycleContext, request: SchedulingRequest, endpoints: readonly Endpoint[], out: Float64Array): void => {
    const info = readMatchInfo(request, producerName);
    if (info instanceof CandidateMatchMap) {
      // The endpoints scored are candidates the producer saw: skip get()'s candidacy check.
      for (let i = 0; i < endpoints.length; i++) out[i] = prefixCacheScore(info.ofCandidate((endpoints[i] as Endpoint).id), matchLengthWeight, matchLengthScaleTokens);
      return;
    }
    for (let i = 0; i < endpoints.length; i++) {
      out[i] = prefixCacheScore(info?.get((endpoints[i] as Endpoint).id), matchLengthWeight, matchLengthScaleTokens);
    }
  };
  return {
    type: PREFIX_CACHE_SCORER,
    name,
    consumes: matchInfoConsumes(producerName),
    scoreInto,
    score(ctx, request, endpoints): ScoreMap {
      const out = new Float64Array(endpoints.length);
      scoreInto(ctx, request, endpoints, out);
      return new Map(endpoints.map((e, i) => [e.id, out[i] ?? 0]));
    },
  };
}

/**
 * Plugin definition of `prefix-cache-scorer`.
 * @public
 * @category Plugins
 */
export function prefixCacheScorerDefinition(env: PrefixPluginEnv): PluginDefinition<PrefixCacheScorerParams> {
  return definePlugin({
    type: PREFIX_CACHE_SCORER,
    description: 'Scores endpoints by how much of the prompt they hold: w·min(1, m·bs/S)² + (1−w)·m/total.',
    parameters: prefixCacheScorerParameters,
    consumes: matchInfoConsumes(undefined),
    create: (p, ctx) => {
      const w = p.matchLengthWeight ?? p.prefixLengthWeight ?? 0;
      const scale = p.matchLengthScaleTokens ?? p.maxModelLen ?? 8192;
      const legacy = LEGACY_INDEX_KEYS.some((k) => p[k] !== undefined);
      if (!legacy) return createPrefixCacheScorer(ctx.name, w, scale, p.prefixMatchInfoProducerName);
      // Legacy: the scorer is also the producer of its own match info (and learns in preRequest).
      const params = approximateProducerParameters.parse(Object.fromEntries(LEGACY_INDEX_KEYS.filter((k) => p[k] !== undefined).map((k) => [k, p[k]])));
      const producer = new ApproximatePrefixProducer({ ...approximateOptionsOf(params), name: ctx.name, hasher: env.hasher, pool: ctx.pool, metrics: env.metrics });
      const scorer = createPrefixCacheScorer(ctx.name, w, scale, ctx.name);
      return {
        type: PREFIX_CACHE_SCORER,
        name: ctx.name,
        consumes: producer.consumes,
        produces: producer.produces,
        index: producer.index,
        produce: producer.produce.bind(producer),
        preRequest: producer.preRequest.bind(producer),
        close: producer.close.bind(producer),
        score: scorer.score.bind(scorer),
        ...(scorer.scoreInto === undefined ? {} : { scoreInto: scorer.scoreInto.bind(scorer) }),
      };
    },
  });
}
