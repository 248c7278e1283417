/**
 * The 53-bit chained block hash behind every prefix key.
 *
 * Pure JavaScript on 32-bit lanes (`Math.imul`), one pass over the block's little-endian uint32
 * words. A WebAssembly xxh64 was used before; its per-call cost (copying the block into wasm
 * memory, BigInt seed and result conversions) was about 260 ns per 64-byte block, five times this
 * function, and the gateway hashes ~20 blocks per 1 KB prompt. Keys never leave the process, so
 * they need not match any other implementation; they must only be well distributed and depend on
 * every input bit, which the property tests check (no collisions among random blocks, full
 * avalanche on single-bit flips, no cancellation between pairs of flips).
 *
 * Each lane runs an xxh32-style round per word (add or xor the word times a prime, rotate,
 * multiply): the rotation brings high bits down so that later multiplications spread them, which
 * keeps a difference in one word from being cancelled by a difference in another. Lane `b` also
 * takes in lane `a` after every word, and the two lanes are avalanched into each other at the end.
 */

// The five 32-bit primes of xxh32.
const P1 = 0x9e3779b1;
const P2 = 0x85ebca77;
const P3 = 0xc2b2ae3d;
const P4 = 0x27d4eb2f;
const P5 = 0x165667b1;
const TWO_32 = 4294967296;
const LOW_21 = 0x1fffff;

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function rotl(x: number, r: number): number {
  return (x << r) | (x >>> (32 - r));
}

function avalanche(h: number): number {
  h ^= h >>> 15;
  h = Math.imul(h, P2);
  h ^= h >>> 13;
  h = Math.imul(h, P3);
  return h ^ (h >>> 16);
}

/**
 * Chains `n` blocks of `blockWords` words over `words` into `out` (the last block may be partial;
 * `byteLength` is the length of the bytes the words were read from), starting from `prevKey`:
 * each block's key seeds the next. One loop for the whole chain: a function call per block cost
 * as much as the hashing for 64-byte blocks.
 */
export function chainWords(words: Uint32Array, byteLength: number, blockWords: number, prevKey: number, out: Float64Array | number[], n: number): void {
  const total = words.length;
  let key = prevKey;
  let from = 0;
  for (let block = 0; block < n; block++) {
    const to = from + blockWords < total ? from + blockWords : total;
    const bytes = Math.min(blockWords * 4, byteLength - from * 4);
    let a = (key >>> 0) ^ P1;
    let b = (key / TWO_32) ^ P2;
    for (let i = from; i < to; i++) {
      const w = words[i] as number;
      a = Math.imul(rotl((a + Math.imul(w, P2)) | 0, 13), P1);
      b = (Math.imul(rotl(b ^ Math.imul(w, P3), 17), P4) + a) | 0;
    }
    a = avalanche(a ^ bytes ^ rotl(b, 7));
    b = avalanche(b ^ Math.imul(bytes, P5) ^ a);
    key = (b & LOW_21) * TWO_32 + (a >>> 0);
    out[block] = key;
    from = to;
  }
}

/**
 * The bytes as uint32 words, little-endian, the last word zero-padded. A view when the bytes are
 * 4-byte aligned, a multiple of 4 long and the machine is little-endian (always, for encoded
 * prompts); a copy otherwise.
 */
export function wordsOf(bytes: Uint8Array): Uint32Array {
  const n = bytes.byteLength;
  if (LITTLE_ENDIAN && (bytes.byteOffset & 3) === 0 && (n & 3) === 0) return new Uint32Array(bytes.buffer, bytes.byteOffset, n >>> 2);
  const words = new Uint32Array((n + 3) >>> 2);
  for (let i = 0; i < n; i++) words[i >>> 2] = ((words[i >>> 2] as number) | ((bytes[i] as number) << ((i & 3) * 8))) >>> 0;
  return words;
}

/**
 * Hashes one whole byte string with `prevKey` as seed.
 * @returns a non-negative integer below 2^53
 */
export function hashBytes(bytes: Uint8Array, prevKey: number): number {
  const words = wordsOf(bytes);
  const out = [0];
  chainWords(words, bytes.byteLength, Math.max(1, words.length), prevKey, out, 1);
  return out[0] as number;
}
