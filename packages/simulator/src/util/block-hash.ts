import { hashString32, mix32 } from './prng.js';

const TWO32 = 4294967296;

/**
 * Root of a request's block-hash chain. Like vLLM's extra keys, the LoRA adapter name and the
 * `cache_salt` are folded into the chain (here at its root, which taints every block just as
 * vLLM's first-block salt does), so requests for different adapters or salts never share blocks.
 * @param adapter - LoRA adapter name, or undefined for the base model
 * @param cacheSalt - vLLM `cache_salt`, or undefined
 * @public
 * @category Util
 */
export function chainRoot(adapter: string | undefined, cacheSalt: string | undefined): number {
  const lo = hashString32(`${adapter ?? ''}\u0000${cacheSalt ?? ''}`);
  const hi = mix32(lo ^ 0x5bd1e995) & 0x1fffff;
  return hi * TWO32 + lo || 1;
}

/**
 * Hash of one full block chained on its parent's hash: a 53-bit positive integer (a safe JS
 * number, so hashes can key Maps without BigInt). Two 32-bit multiply-rotate lanes over the token
 * ids, then a murmur finaliser. Not vLLM's SHA-256: routers that use KV events re-key blocks from
 * `token_ids` (llm-d's dual-key design), so engine hashes only need to be stable and distinct.
 * @param parent - hash of the previous block, or the chain root for the first block
 * @param tokens - token ids
 * @param start - index of the block's first token in `tokens`
 * @param size - tokens per block
 * @public
 * @category Util
 */
export function hashBlock(parent: number, tokens: ArrayLike<number>, start: number, size: number): number {
  let h1 = (parent % TWO32) | 0;
  let h2 = Math.floor(parent / TWO32) ^ 0x27d4eb2f;
  for (let i = start, end = start + size; i < end; i++) {
    const k = (tokens[i] ?? 0) | 0;
    h1 = Math.imul(h1 ^ k, 0x85ebca6b);
    h1 = (h1 << 13) | (h1 >>> 19);
    h2 = Math.imul(h2 ^ k, 0xcc9e2d51) + h1;
    h2 = (h2 << 17) | (h2 >>> 15);
  }
  h1 = mix32(h1 ^ size);
  h2 = mix32(h2 ^ h1);
  return (h2 & 0x1fffff) * TWO32 + h1 || 1;
}

/**
 * Hashes of every full block of `tokens`, chained from `root`, written into `out` from index
 * `from` (earlier entries are assumed to be filled already, so a growing sequence is hashed once).
 * @returns the number of full blocks
 * @public
 * @category Util
 */
export function hashBlocks(tokens: ArrayLike<number>, length: number, blockSize: number, root: number, out: number[], from = 0): number {
  const full = Math.floor(length / blockSize);
  let parent = from === 0 ? root : (out[from - 1] ?? root);
  for (let b = from; b < full; b++) {
    parent = hashBlock(parent, tokens, b * blockSize, blockSize);
    out[b] = parent;
  }
  return full;
}
