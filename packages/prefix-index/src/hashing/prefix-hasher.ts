import xxhash from 'xxhash-wasm';
import type { BlockKeys } from '../api/types.js';
import { tokensToBytes } from './prompt-bytes.js';

/** Keys keep the low 53 bits of the 64-bit hash: exact in a float64, and collisions stay negligible. */
const KEY_MASK = (1n << 53n) - 1n;

/**
 * How one prompt is cut into blocks.
 * @public
 */
export interface ChainOptions {
  /** Block size in tokens (4 bytes per token). */
  readonly blockSizeTokens: number;
  /** Stop after this many blocks; 0 or absent = no cap. */
  readonly maxBlocks?: number;
  /**
   * Hash the trailing partial block too (the approximate scheme does; engines and the precise
   * index only know full blocks). Default true.
   */
  readonly includePartial?: boolean;
}

/**
 * Chained block hashing with xxh64 (xxhash-wasm). Every key depends on the whole prefix before it:
 * `k_0 = low53(xxh64(model ‖ cacheSalt))`, `k_i = low53(xxh64(block_i bytes, seed = k_{i−1}))`,
 * where a block is `blockSizeTokens` little-endian uint32 tokens. Seeding the block hash with the
 * previous key chains in one wasm call per block, which keeps hashing above 1 GB/s; llm-d hashes
 * each block then the pair (block hash, previous hash), same chaining, different bit values (the
 * values never leave this gateway, so they need not match).
 * Create with {@link createPrefixHasher}.
 * @public
 */
export class PrefixHasher {
  readonly #h64Raw: (input: Uint8Array, seed?: bigint) => bigint;
  readonly #encoder = new TextEncoder();

  /** @internal use {@link createPrefixHasher} */
  constructor(h64Raw: (input: Uint8Array, seed?: bigint) => bigint) {
    this.#h64Raw = h64Raw;
  }

  /** Root key of a chain: the target model (after rewrite) followed by the cache salt. */
  rootKey(model: string, cacheSalt?: string): number {
    const text = cacheSalt === undefined ? model : model + cacheSalt;
    return Number(this.#h64Raw(this.#encoder.encode(text)) & KEY_MASK);
  }

  /** Key of one block following `prevKey` (bytes = uint32 LE tokens). */
  blockKey(prevKey: number, block: Uint8Array): number {
    return Number(this.#h64Raw(block, BigInt(prevKey)) & KEY_MASK);
  }

  /**
   * Hashes one prompt given as uint32 LE bytes (length a multiple of 4), continuing from
   * `prevKey` (a root key or the last key of a parent chain).
   */
  chainBytes(bytes: Uint8Array, prevKey: number, options: ChainOptions): Float64Array {
    const blockBytes = options.blockSizeTokens * 4;
    if (!(blockBytes > 0)) throw new RangeError(`blockSizeTokens must be a positive integer, got ${options.blockSizeTokens}`);
    const length = bytes.byteLength;
    const full = Math.floor(length / blockBytes);
    let n = options.includePartial === false || length % blockBytes === 0 ? full : full + 1;
    const cap = options.maxBlocks ?? 0;
    if (cap > 0 && n > cap) n = cap;
    const out = new Float64Array(n);
    const h64Raw = this.#h64Raw;
    let key = prevKey;
    let offset = 0;
    for (let i = 0; i < n; i++) {
      const end = Math.min(offset + blockBytes, length);
      key = Number(h64Raw(bytes.subarray(offset, end), BigInt(key)) & KEY_MASK);
      out[i] = key;
      offset = end;
    }
    return out;
  }

  /** Like {@link PrefixHasher.chainBytes} for token ids. */
  chainTokens(tokens: ArrayLike<number>, prevKey: number, options: ChainOptions): Float64Array {
    return this.chainBytes(tokensToBytes(tokens), prevKey, options);
  }

  /**
   * Block keys of a whole request: one chain per prompt, each rooted at
   * `rootKey(model, cacheSalt)`.
   */
  hashPrompts(prompts: readonly Uint8Array[], model: string, cacheSalt: string | undefined, options: ChainOptions): BlockKeys {
    const root = this.rootKey(model, cacheSalt);
    const chains: Float64Array[] = [];
    let totalBlocks = 0;
    for (const p of prompts) {
      const chain = this.chainBytes(p, root, options);
      totalBlocks += chain.length;
      chains.push(chain);
    }
    return { chains, blockSizeTokens: options.blockSizeTokens, totalBlocks };
  }
}

/**
 * Loads xxhash-wasm (asynchronous, once per call) and returns a {@link PrefixHasher}.
 * @example
 * ```ts
 * const hasher = await createPrefixHasher();
 * const keys = hasher.hashPrompts(encodePromptBytes(request.prompt), 'llama', undefined, { blockSizeTokens: 64 });
 * ```
 * @public
 */
export async function createPrefixHasher(): Promise<PrefixHasher> {
  const api = await xxhash();
  // h64Raw closes over the wasm instance and never reads `this`.
  return new PrefixHasher((input, seed) => api.h64Raw(input, seed));
}
