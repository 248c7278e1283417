import {
  attributeKey,
  definePlugin,
  type CycleContext,
  type Endpoint,
  type PluginDefinition,
  type RequestLifecycle,
  type ScoreMap,
  type Scorer,
  type SchedulingRequest,
  type SchedulingResult,
} from '@switchyard/core';
import { z } from 'zod';
import { matchInfoConsumes, readMatchInfo } from './attributes.js';

/**
 * Type name of the no-hit LRU scorer. @public
 * @category Plugins
 */
export const NO_HIT_LRU_SCORER = 'no-hit-lru-scorer';

/**
 * Parameters of `no-hit-lru-scorer`, decoded strictly. llm-d's deprecated `prefixPluginType` and
 * `prefixPluginName` are accepted and ignored (llm-d never used them either).
 * @public
 * @category Plugins
 */
export const noHitLruScorerParameters = z.strictObject({
  /** Endpoints remembered in the recently-used list (0 = the default 1024, as in llm-d). */
  lruSize: z.number().int().min(0).default(1024),
  /** Read the match info of this producer instead of the shared attribute. */
  prefixMatchInfoProducerName: z.string().optional(),
  /** Deprecated in llm-d and never used: ignored. */
  prefixPluginType: z.string().optional(),
  /** Deprecated in llm-d and never used: ignored. */
  prefixPluginName: z.string().optional(),
});

/**
 * Parsed parameters of `no-hit-lru-scorer`.
 * @public
 * @category Plugins
 */
export type NoHitLruScorerParams = z.output<typeof noHitLruScorerParameters>;

/**
 * A scorer that spreads cold requests. When any candidate holds part of the prompt, every
 * endpoint gets 0.5 (the prefix scorer decides). When none does, candidates are ranked: endpoints
 * that never served a cold request first (in input order), then the recently-used list from least
 * to most recent; rank r of n scores `max(0, 1 − r/(n−1))` (n = 1 → 1). After the pick, a cold
 * request's primary and `prefill` targets become the most recently used.
 * @public
 * @category Plugins
 */
export class NoHitLruScorer implements Scorer, RequestLifecycle {
  /** `no-hit-lru-scorer`. */
  readonly type = NO_HIT_LRU_SCORER;
  /** Instance name. */
  readonly name: string;
  /** Attributes read. */
  readonly consumes: readonly string[];
  readonly #lru = new Map<string, true>();
  readonly #lruSize: number;
  readonly #producer: string | undefined;
  readonly #cold;

  constructor(name: string, lruSize = 1024, producerName?: string) {
    this.name = name;
    this.#lruSize = lruSize;
    this.#producer = producerName;
    this.consumes = matchInfoConsumes(producerName);
    this.#cold = attributeKey<boolean>(`no-hit-lru-cold/${name}`);
  }

  /** Endpoint ids in the recently-used list, least recent first. */
  recent(): string[] {
    return [...this.#lru.keys()];
  }

  /** Writes scores into `out`. */
  scoreInto(_ctx: CycleContext, request: SchedulingRequest, endpoints: readonly Endpoint[], out: Float64Array): void {
    const info = readMatchInfo(request, this.#producer);
    let warm = false;
    if (info !== undefined) {
      for (const e of endpoints) {
        if ((info.get(e.id)?.matchBlocks ?? 0) > 0) {
          warm = true;
          break;
        }
      }
    }
    request.attributes.set(this.#cold, !warm);
    const n = endpoints.length;
    if (warm) {
      out.fill(0.5, 0, n);
      return;
    }
    if (n === 1) {
      out[0] = 1;
      return;
    }
    const index = new Map<string, number>();
    endpoints.forEach((e, i) => index.set(e.id, i));
    let rank = 0;
    const score = (): number => Math.max(0, 1 - rank++ / (n - 1));
    for (let i = 0; i < n; i++) if (!this.#lru.has((endpoints[i] as Endpoint).id)) out[i] = score();
    for (const id of this.#lru.keys()) {
      const i = index.get(id);
      if (i !== undefined) out[i] = score();
    }
  }

  /** Scores by endpoint id. */
  score(ctx: CycleContext, request: SchedulingRequest, endpoints: readonly Endpoint[]): ScoreMap {
    const out = new Float64Array(endpoints.length);
    this.scoreInto(ctx, request, endpoints, out);
    return new Map(endpoints.map((e, i) => [e.id, out[i] ?? 0]));
  }

  /** Moves a cold request's primary and prefill targets to the most recent end. */
  preRequest(_ctx: CycleContext, request: SchedulingRequest, result: SchedulingResult): void {
    if (request.attributes.get(this.#cold) !== true) return;
    const primary = result.profileResults.get(result.primaryProfileName)?.targets[0];
    const prefill = result.profileResults.get('prefill')?.targets[0];
    if (primary !== undefined) this.#touch(primary.id);
    if (prefill !== undefined) this.#touch(prefill.id);
  }

  #touch(id: string): void {
    this.#lru.delete(id);
    this.#lru.set(id, true);
    if (this.#lru.size > this.#lruSize) {
      const oldest = this.#lru.keys().next();
      if (oldest.done !== true) this.#lru.delete(oldest.value);
    }
  }
}

/**
 * Plugin definition of `no-hit-lru-scorer`.
 * @public
 * @category Plugins
 */
export const noHitLruScorerDefinition: PluginDefinition<NoHitLruScorerParams> = definePlugin({
  type: NO_HIT_LRU_SCORER,
  description: 'Spreads requests no endpoint has cached over the least recently used endpoints.',
  parameters: noHitLruScorerParameters,
  consumes: matchInfoConsumes(undefined),
  create: (p, ctx) => new NoHitLruScorer(ctx.name, p.lruSize > 0 ? p.lruSize : 1024, p.prefixMatchInfoProducerName),
});
