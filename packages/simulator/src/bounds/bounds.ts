import type { EngineProfile } from '../engine/types.js';
import type { Workload } from '../workloads/types.js';
import { workloadBlocks } from './block-streams.js';
import { beladyHits, unlimitedCacheHits } from './hit-bounds.js';
import { ttftLowerBounds } from './ttft-bound.js';

/**
 * The three sound references of a workload on a fleet, per item (in workload order).
 * @public
 * @category Bounds
 */
export interface WorkloadBounds {
  /** Unlimited-cache bound: prompt tokens reusable at best, per item. */
  readonly unlimitedHitTokens: Int32Array;
  /** Capacity-aware (Belady) bound: prompt tokens reusable at best with the fleet's KV size. */
  readonly capacityHitTokens: Int32Array;
  /** TTFT lower bound per item, ms. */
  readonly ttftLowerMs: Float64Array;
  /** KV blocks the capacity-aware bound assumed (pods × (GPU + CPU blocks)). */
  readonly capacityBlocks: number;
}

/**
 * Options of {@link computeBounds}.
 * @public
 * @category Bounds
 */
export interface BoundsOptions {
  /** Pods of the fleet. */
  readonly pods: number;
  /** Engine profile of every pod. */
  readonly profile: EngineProfile;
  /** CPU-tier blocks per pod (default 0). */
  readonly cpuBlocksPerPod?: number;
  /** Unavoidable time per item outside engine steps (gateway CPU, request path), ms (default 0). */
  readonly fixedMs?: (index: number) => number;
}

/**
 * Computes the unlimited-cache hit bound, the capacity-aware hit bound and the per-request TTFT
 * lower bound of a workload (see docs/simulator.md, "Sound references"). Pure: the workload and
 * the fleet shape decide them, no policy is run.
 * @public
 * @category Bounds
 */
export function computeBounds(workload: Workload, o: BoundsOptions): WorkloadBounds {
  const bs = o.profile.blockSize;
  const streams = workloadBlocks(workload, bs);
  const capacityBlocks = o.pods * (o.profile.numGpuBlocks + (o.cpuBlocksPerPod ?? 0));
  const toTokens = (blocks: Int32Array): Int32Array => blocks.map((b) => b * bs);
  const engine = { cost: o.profile.cost, blockSize: bs, maxNumBatchedTokens: o.profile.maxNumBatchedTokens };
  return {
    unlimitedHitTokens: toTokens(unlimitedCacheHits(streams)),
    capacityHitTokens: toTokens(beladyHits(streams, capacityBlocks)),
    ttftLowerMs: ttftLowerBounds(engine, streams, workload.items.map((it) => it.promptLength), o.fixedMs ?? (() => 0)),
    capacityBlocks,
  };
}
