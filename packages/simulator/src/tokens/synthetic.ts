import { mix32 } from '../util/prng.js';

const A = 97; // 'a'
const SPACE = 32;

/**
 * A synthetic token: three lower-case letters and a space, packed like {@link tokenizeText}
 * packs text, so synthetic prompts detokenize to readable pseudo-words and tokenize back to the
 * same ids. Token `i` of stream `seed` is a pure function of both (no state, no storage), which lets
 * workloads describe a 200K-token prompt as a few `(seed, length)` pairs.
 * @public
 * @category Tokens
 */
export function syntheticToken(seed: number, i: number): number {
  const r = mix32(Math.imul(seed ^ 0x9e3779b9, 0x27d4eb2d) + Math.imul(i, 0x165667b1));
  const c0 = A + (r % 26);
  const c1 = A + (Math.floor(r / 26) % 26);
  const c2 = A + (Math.floor(r / 676) % 26);
  return (c0 | (c1 << 8) | (c2 << 16) | (SPACE << 24)) >>> 0;
}

/**
 * Writes tokens `[offset, offset + length)` of stream `seed` into `out` at `at`.
 * @public
 * @category Tokens
 */
export function fillSyntheticTokens(out: Uint32Array, at: number, seed: number, offset: number, length: number): void {
  for (let k = 0; k < length; k++) out[at + k] = syntheticToken(seed, offset + k);
}
