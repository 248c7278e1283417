import type { EngineProfile } from '../engine/types.js';

/**
 * Shape of a workload for {@link estimateCapacity}: per request, `sharedTokens` come from a prefix
 * that a cache-aware fleet keeps resident once per pod (`sharedSetsPerPod` distinct such prefixes
 * per pod), the rest of the prompt is unique.
 * @public
 * @category Workloads
 */
export interface CapacityShape {
  /** Prompt tokens per request. */
  readonly promptTokens: number;
  /** Output tokens per request. */
  readonly outputTokens: number;
  /** Tokens of the prompt that are a shared prefix (0 = none). */
  readonly sharedTokens?: number;
  /** Distinct shared prefixes resident on each pod (e.g. groups / pods). */
  readonly sharedSetsPerPod?: number;
}

/**
 * Estimated sustainable request rate of a fleet (requests/s) for a workload shape, from the
 * profile's cost model and KV size. Each pod keeps its shared prefixes resident once and fills the
 * rest of its KV cache with concurrent requests' unique tokens (prompt tail + output); the decode
 * step time at that concurrency sets each request's time in the system, and Little's law gives
 * the rate: `pods × C / (prefill + output × ITL(C))`. It is an upper bound for a cache-aware
 * policy; a policy that ignores the cache recomputes the shared prefix and saturates earlier.
 * @public
 * @category Workloads
 */
export function estimateCapacity(profile: EngineProfile, pods: number, shape: CapacityShape): number {
  const c = profile.cost;
  const kvTokens = profile.numGpuBlocks * profile.blockSize;
  const shared = shape.sharedTokens ?? 0;
  const unique = shape.promptTokens - shared + shape.outputTokens;
  const resident = shared * (shape.sharedSetsPerPod ?? 0);
  const concurrency = Math.max(1, Math.min(profile.maxNumSeqs, (kvTokens - resident) / Math.max(1, unique)));
  const context = shape.promptTokens + shape.outputTokens / 2;
  const itl = c.stepOverheadMs + Math.max(c.weightReadMs, c.perTokenMs * concurrency) + c.perSeqMs * concurrency + c.decodeContextNs * 1e-6 * concurrency * context;
  const fresh = shape.promptTokens - shared;
  const prefill = c.perTokenMs * fresh + c.attentionPairNs * 1e-6 * (2 * shared * fresh + fresh * fresh);
  const residenceMs = prefill + shape.outputTokens * itl;
  return (pods * concurrency * 1000) / residenceMs;
}
