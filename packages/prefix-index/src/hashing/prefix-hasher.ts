import type { BlockKeys } from '../api/types.js';
import { tokensToBytes } from './prompt-bytes.js';
import { chainWords, hashBytes, wordsOf } from './block-hash.js';
import { blockKeys } from '../api/records.js';

/** Root keys remembered (model and salt are few; a client inventing salts only recycles the cache). */
const ROOT_CACHE_SIZE = 1024;

/** Blocks of a prompt of `length` bytes under `options`. */
function blockCount(length: number, options: ChainOptions): number {
  const blockBytes = options.blockSizeTokens * 4;
  if (!(blockBytes > 0)) throw new RangeError(`blockSizeTokens must be a positive integer, got ${options.blockSizeTokens}`);
  const full = Math.floor(length / blockBytes);
  const n = options.includePartial === false || length % blockBytes === 0 ? full : full + 1;
  const cap = options.maxBlocks ?? 0;
  return cap > 0 && n > cap ? cap : n;
}

/**
 * How one prompt is cut into blocks.
 * @public
 * @category Hashing
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
 * Chained block hashing. Every key depends on the whole prefix before it:
 * `k_0 = h(model ‖ cacheSalt, seed = 0)`, `k_i = h(block_i bytes, seed = k_{i−1})`, where a block
 * is `blockSizeTokens` little-endian uint32 tokens and `h` is a 53-bit hash (exact in a float64)
 * computed in JavaScript, one pass per block. llm-d hashes each block then the pair (block hash,
 * previous hash): same chaining, different bit values (the values never leave this gateway, so
 * they need not match).
 * Create with {@link createPrefixHasher} or `new PrefixHasher()`.
 * @public
 * @category Hashing
 */
export class PrefixHasher {
  readonly #encoder = new TextEncoder();
  readonly #roots = new Map<string, number>();

  /** Root key of a chain: the target model (after rewrite) followed by the cache salt. */
  rootKey(model: string, cacheSalt?: string): number {
    const text = cacheSalt === undefined ? model : model + cacheSalt;
    let key = this.#roots.get(text);
    if (key === undefined) {
      key = hashBytes(this.#encoder.encode(text), 0);
      if (this.#roots.size >= ROOT_CACHE_SIZE) this.#roots.clear();
      this.#roots.set(text, key);
    }
    return key;
  }

  /** Key of one block following `prevKey` (bytes = uint32 LE tokens). */
  blockKey(prevKey: number, block: Uint8Array): number {
    return hashBytes(block, prevKey);
  }

  /**
   * Hashes one prompt given as uint32 LE bytes (length a multiple of 4), continuing from
   * `prevKey` (a root key or the last key of a parent chain).
   */
  chainBytes(bytes: Uint8Array, prevKey: number, options: ChainOptions): Float64Array {
    const length = bytes.byteLength;
    const n = blockCount(length, options);
    const out = new Float64Array(n);
    chainWords(wordsOf(bytes), length, options.blockSizeTokens, prevKey, out, n);
    return out;
  }

  /**
   * Allocation-free form of {@link PrefixHasher.chainBytes} for hot paths that assemble tokens in
   * their own reused buffer: chains the first `n` full blocks of `words` (`blockSizeTokens`
   * tokens each, `words.length ≥ n · blockSizeTokens`) from `prevKey` into `out[0..n)`. The keys
   * equal those of `chainBytes` over the same tokens.
   */
  chainWordsInto(words: Uint32Array, prevKey: number, blockSizeTokens: number, out: Float64Array, n: number): void {
    chainWords(words, n * blockSizeTokens * 4, blockSizeTokens, prevKey, out, n);
  }

  /** {@link PrefixHasher.chainBytes} into a plain array (the request path's form, see `KeyChain`). */
  #chainToArray(bytes: Uint8Array, prevKey: number, options: ChainOptions): number[] {
    const n = blockCount(bytes.byteLength, options);
    const out = new Array<number>(n);
    chainWords(wordsOf(bytes), bytes.byteLength, options.blockSizeTokens, prevKey, out, n);
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
    let totalBlocks = 0;
    const chains = prompts.map((p) => {
      const chain = this.#chainToArray(p, root, options);
      totalBlocks += chain.length;
      return chain;
    });
    return blockKeys(chains, options.blockSizeTokens, totalBlocks);
  }
}

/**
 * Returns a new {@link PrefixHasher} (the same as `new PrefixHasher()`; the hash is plain
 * JavaScript, so there is nothing to load first).
 * @example
 * ```ts
 * const hasher = createPrefixHasher();
 * const keys = hasher.hashPrompts(encodePromptBytes(request.prompt), 'llama', undefined, { blockSizeTokens: 64 });
 * ```
 * @public
 * @category Hashing
 */
export function createPrefixHasher(): PrefixHasher {
  return new PrefixHasher();
}
