import type { Endpoint } from '@switchyard/core';

/**
 * llm-d's floor for the approximate index's block size, in tokens: smaller blocks made the index
 * grow out of memory on long prompts (llm-d issue #1158). 64 estimate tokens = 256 bytes.
 * @public
 * @category Hashing
 */
export const MIN_APPROX_BLOCK_SIZE_TOKENS = 64;

/**
 * Block size the approximate scheme uses for one request: `configured`, or with `autoTune` the
 * first candidate's engine block size when known, then raised to at least `floor`.
 * @public
 * @category Hashing
 */
export function effectiveBlockSizeTokens(
  configured: number,
  autoTune: boolean,
  candidates: readonly Endpoint[],
  floor: number = MIN_APPROX_BLOCK_SIZE_TOKENS,
): number {
  let bs = configured;
  if (autoTune) {
    const engine = candidates[0]?.metrics?.cacheBlockSize ?? 0;
    if (engine > 0) bs = engine;
  }
  return Math.max(floor, Math.floor(bs));
}

/**
 * Cap on hashed blocks: `maxTokens / bs` when `maxTokens > 0`, else `maxBlocks`; 0 = no cap.
 * @public
 * @category Hashing
 */
export function maxBlocksToMatch(maxTokens: number, maxBlocks: number, blockSizeTokens: number): number {
  if (maxTokens > 0) return Math.max(1, Math.floor(maxTokens / blockSizeTokens));
  return Math.max(0, Math.floor(maxBlocks));
}
