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
 * The words of a block are dealt to four lanes in turn (word `i` to lane `i mod 4`, as xxh32's
 * stripes), each running an xxh32 round per word (add the word times a prime, rotate, multiply):
 * the four multiplication chains are independent, so the CPU runs them side by side instead of
 * waiting on one long chain (a third faster than the earlier two-lane design). The rotation
 * brings high bits down so that later multiplications spread them. At the end of the block the
 * lanes are folded two different ways into two 32-bit halves, which are avalanched into each
 * other with the block's byte length.
 */

// 32-bit primes of xxh32.
const P1 = 0x9e3779b1;
const P2 = 0x85ebca77;
const P3 = 0xc2b2ae3d;
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

/** One xxh32 round: lane `v` takes in word `w`. */
function round(v: number, w: number): number {
  return Math.imul(rotl((v + Math.imul(w, P2)) | 0, 13), P1);
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
    const lo = key >>> 0;
    const hi = (key / TWO_32) | 0;
    let v1 = (lo + P1 + P2) | 0;
    let v2 = (hi + P2) | 0;
    let v3 = lo ^ P5;
    let v4 = (hi - P1) | 0;
    let i = from;
    for (; i + 4 <= to; i += 4) {
      v1 = round(v1, words[i] as number);
      v2 = round(v2, words[i + 1] as number);
      v3 = round(v3, words[i + 2] as number);
      v4 = round(v4, words[i + 3] as number);
    }
    // The last one to three words go to their lanes as in the loop.
    if (i < to) v1 = round(v1, words[i] as number);
    if (i + 1 < to) v2 = round(v2, words[i + 1] as number);
    if (i + 2 < to) v3 = round(v3, words[i + 2] as number);
    let a = (rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18)) | 0;
    let b = rotl(v1, 13) ^ rotl(v2, 3) ^ rotl(v3, 25) ^ Math.imul(v4, P3);
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
