import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chainWords, hashBytes, wordsOf } from './block-hash.js';

const popcount32 = (x: number): number => {
  let n = 0;
  for (let v = x >>> 0; v !== 0; v >>>= 1) n += v & 1;
  return n;
};
const high = (k: number): number => Math.floor(k / 4294967296);
/** Number of differing bits between two 53-bit keys. */
const distance = (a: number, b: number): number => popcount32((a >>> 0) ^ (b >>> 0)) + popcount32(high(a) ^ high(b));

const flip = (bytes: Uint8Array, bit: number): Uint8Array => {
  const copy = Uint8Array.from(bytes);
  copy[bit >>> 3] = (copy[bit >>> 3] as number) ^ (1 << (bit & 7));
  return copy;
};

describe('53-bit block hash', () => {
  it('returns non-negative safe integers below 2^53', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (bytes, seed) => {
        const k = hashBytes(bytes, seed);
        expect(Number.isSafeInteger(k)).toBe(true);
        expect(k).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('reads words the same whether the bytes are a view or an unaligned copy', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 4, maxLength: 200 }).map((b) => b.subarray(0, b.length & ~3)), (bytes) => {
        const shifted = new Uint8Array(bytes.length + 1).subarray(1);
        shifted.set(bytes);
        expect(hashBytes(shifted, 9)).toBe(hashBytes(bytes, 9));
        expect([...wordsOf(shifted)]).toEqual([...wordsOf(bytes)]);
      }),
    );
  });

  it('counts trailing zero bytes and the seed', () => {
    expect(hashBytes(new Uint8Array([1, 2, 3]), 0)).not.toBe(hashBytes(new Uint8Array([1, 2, 3, 0]), 0));
    expect(hashBytes(new Uint8Array(0), 0)).not.toBe(hashBytes(new Uint8Array(0), 1));
    expect(hashBytes(new Uint8Array(64), 2 ** 40)).not.toBe(hashBytes(new Uint8Array(64), 2 ** 41));
  });

  it('has no collisions among 200,000 random 64-byte blocks (53 bits: expected 0.002)', () => {
    const seen = new Set<number>();
    const words = new Uint32Array(16);
    let state = 12345;
    for (let n = 0; n < 200_000; n++) {
      for (let i = 0; i < 16; i++) {
        // xorshift32: deterministic, cheap input.
        state ^= state << 13;
        state ^= state >>> 17;
        state ^= state << 5;
        words[i] = state >>> 0;
      }
      seen.add(hashBytes(new Uint8Array(words.buffer), 7));
    }
    expect(seen.size).toBe(200_000);
  });

  it('has no collisions among highly similar blocks (counters, one word changing)', () => {
    const seen = new Set<number>();
    const words = new Uint32Array(16);
    for (let w = 0; w < 16; w++) {
      for (let v = 1; v <= 4096; v++) {
        words.fill(0);
        words[w] = v;
        seen.add(hashBytes(new Uint8Array(words.buffer), 0));
      }
    }
    expect(seen.size).toBe(16 * 4096);
  });

  it('avalanches: flipping any one input bit changes about half of the 53 output bits', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 64, maxLength: 64 }), fc.integer({ min: 0, max: 64 * 8 - 1 }), (bytes, bit) => {
        const d = distance(hashBytes(bytes, 3), hashBytes(flip(bytes, bit), 3));
        expect(d).toBeGreaterThanOrEqual(8);
        expect(d).toBeLessThanOrEqual(45);
      }),
      { numRuns: 2000 },
    );
  });

  it('two flipped bits in different words never cancel (the weakness of multiply-only hashes)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 64, maxLength: 64 }), fc.integer({ min: 0, max: 15 }), fc.integer({ min: 0, max: 15 }), fc.integer({ min: 0, max: 31 }), (bytes, w1, w2, bit) => {
        fc.pre(w1 !== w2);
        const twice = flip(flip(bytes, w1 * 32 + bit), w2 * 32 + bit);
        expect(hashBytes(twice, 5)).not.toBe(hashBytes(bytes, 5));
      }),
      { numRuns: 2000 },
    );
  });

  it('averages close to 26.5 differing bits over many single-bit flips', () => {
    const base = new Uint8Array(64).map((_, i) => (i * 37) & 0xff);
    let total = 0;
    let n = 0;
    for (let bit = 0; bit < 512; bit++) {
      total += distance(hashBytes(base, 11), hashBytes(flip(base, bit), 11));
      n++;
    }
    const mean = total / n;
    expect(mean).toBeGreaterThan(24.5);
    expect(mean).toBeLessThan(28.5);
  });
});

describe('chained words', () => {
  it('gives the same keys as hashing each block alone, seeded with the previous key', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (bytes, blockWords, seed) => {
        const words = wordsOf(bytes);
        const blocks = Math.ceil(words.length / blockWords);
        const out = new Float64Array(blocks);
        chainWords(words, bytes.byteLength, blockWords, seed, out, blocks);
        let key = seed;
        for (let i = 0; i < blocks; i++) {
          key = hashBytes(bytes.subarray(i * blockWords * 4, (i + 1) * blockWords * 4), key);
          expect(out[i]).toBe(key);
        }
      }),
    );
  });
});
