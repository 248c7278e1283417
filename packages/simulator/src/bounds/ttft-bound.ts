import { StepShape, baseStepTimeMs } from '../engine/cost-model.js';
import type { CostModelParams } from '../engine/types.js';
import type { RequestBlocks } from './block-streams.js';

/**
 * Engine facts the TTFT lower bound needs.
 * @public
 * @category Bounds
 */
export interface TtftBoundEngine {
  /** Cost model of the engine's steps. */
  readonly cost: CostModelParams;
  /** Tokens per KV block. */
  readonly blockSize: number;
  /** Chunked-prefill token budget per step. */
  readonly maxNumBatchedTokens: number;
}

/**
 * For each request, the longest leading run of its queryable blocks that any *other* request
 * holds (in its prompt or output), whatever the order: the most any cache could ever serve it.
 * @public
 * @category Bounds
 */
export function bestPossibleHits(streams: readonly RequestBlocks[]): Int32Array {
  const owners = new Map<number, number>();
  for (const s of streams) for (const h of s.hashes) owners.set(h, (owners.get(h) ?? 0) + 1);
  const hits = new Int32Array(streams.length);
  streams.forEach((s, i) => {
    let k = 0;
    while (k < s.queryable && (owners.get(s.hashes[k] ?? 0) ?? 0) >= 2) k++;
    hits[i] = k;
  });
  return hits;
}

/**
 * Fastest possible prefill of `promptTokens` after `cachedTokens` on an idle engine: chunks of
 * at most `maxNumBatchedTokens`, each step at its deterministic cost shrunk by the largest jitter
 * the engine can draw (−3σ). The first token is sampled at the end of the last chunk.
 * @public
 * @category Bounds
 */
export function idlePrefillMs(engine: TtftBoundEngine, promptTokens: number, cachedTokens: number): number {
  const shape = new StepShape();
  const fastest = Math.max(0.05, 1 - 3 * engine.cost.jitter);
  let computed = Math.min(cachedTokens, promptTokens - 1);
  let total = 0;
  while (computed < promptTokens) {
    const n = Math.min(engine.maxNumBatchedTokens, promptTokens - computed);
    shape.reset();
    shape.addPrefill(computed, n);
    total += baseStepTimeMs(engine.cost, shape) * fastest;
    computed += n;
  }
  return total;
}

/**
 * Per-request TTFT lower bound, ms: the request-path time every request pays (`fixedMs`, from the
 * fleet's gateway and request-path models) plus the idle-engine prefill of what is left after the
 * best possible hit. No policy can give a request a lower TTFT.
 * @param streams - block streams of the workload's items
 * @param promptTokens - prompt length per item
 * @param fixedMs - unavoidable per-request time outside the engine step loop, per item
 * @public
 * @category Bounds
 */
export function ttftLowerBounds(engine: TtftBoundEngine, streams: readonly RequestBlocks[], promptTokens: ArrayLike<number>, fixedMs: (i: number) => number): Float64Array {
  const best = bestPossibleHits(streams);
  const out = new Float64Array(streams.length);
  for (let i = 0; i < streams.length; i++) {
    out[i] = fixedMs(i) + idlePrefillMs(engine, promptTokens[i] ?? 1, (best[i] ?? 0) * engine.blockSize);
  }
  return out;
}
