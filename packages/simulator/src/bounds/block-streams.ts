import { chainRoot, hashBlocks } from '../util/block-hash.js';
import { syntheticToken } from '../tokens/synthetic.js';
import { generatedLength, materializePrompt } from '../workloads/prompt.js';
import type { Workload, WorkloadItem } from '../workloads/types.js';

/**
 * The KV blocks one request touches, as the engine hashes them: `hashes` are the chained hashes
 * of every full block of prompt + generated output; the first `queryable` of them are the ones a
 * prefix-cache lookup may hit (the last prompt token is always computed, as in vLLM).
 * @public
 * @category Bounds
 */
export interface RequestBlocks {
  /** Chained block hashes of prompt + output, in order. */
  readonly hashes: readonly number[];
  /** Leading blocks a prefix lookup may reuse: `floor((promptLength - 1) / blockSize)`. */
  readonly queryable: number;
}

/**
 * Block hashes of one item with the engine's hashing (LoRA adapter folded into the chain root),
 * including the blocks its generated output fills, which a later turn may reuse.
 * @public
 * @category Bounds
 */
export function requestBlocks(item: WorkloadItem, blockSize: number): RequestBlocks {
  const prompt = materializePrompt(item);
  const out = generatedLength(item);
  const all = new Uint32Array(prompt.length + out);
  all.set(prompt);
  for (let k = 0; k < out; k++) all[prompt.length + k] = syntheticToken(item.outputSeed, k);
  const hashes: number[] = [];
  hashBlocks(all, all.length, blockSize, chainRoot(item.adapter, undefined), hashes);
  return { hashes, queryable: Math.max(0, Math.floor((prompt.length - 1) / blockSize)) };
}

/**
 * Block streams of every item of a workload, in the workload's arrival order.
 * @public
 * @category Bounds
 */
export function workloadBlocks(workload: Workload, blockSize: number): RequestBlocks[] {
  return workload.items.map((item) => requestBlocks(item, blockSize));
}
