/**
 * The simulator's tokenizer: every 4 bytes of UTF-8 make one token, whose id is those bytes read
 * as a little-endian unsigned 32-bit integer (a trailing partial chunk is zero-padded). It matches
 * llm-d's "bytes / 4" token estimate, is exactly invertible, and - the property that matters for
 * routing - two texts share a token prefix exactly as long as they share a byte prefix (rounded
 * down to 4 bytes), so prefix sharing in text is prefix sharing in KV blocks.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Bytes per token of {@link tokenizeText}. @public
 * @category Tokens
 */
export const BYTES_PER_TOKEN = 4;

/**
 * Token ids of a UTF-8 byte string.
 * @public
 * @category Tokens
 */
export function tokenizeBytes(bytes: Uint8Array): Uint32Array {
  const n = Math.ceil(bytes.length / BYTES_PER_TOKEN);
  const out = new Uint32Array(n);
  for (let t = 0; t < n; t++) {
    const i = t * BYTES_PER_TOKEN;
    out[t] = ((bytes[i] ?? 0) | ((bytes[i + 1] ?? 0) << 8) | ((bytes[i + 2] ?? 0) << 16) | ((bytes[i + 3] ?? 0) << 24)) >>> 0;
  }
  return out;
}

/**
 * Token ids of a text (4 UTF-8 bytes per token).
 * @example
 * ```ts
 * tokenizeText('hello world!'); // 3 tokens
 * ```
 * @public
 * @category Tokens
 */
export function tokenizeText(text: string): Uint32Array {
  return tokenizeBytes(encoder.encode(text));
}

/**
 * The UTF-8 bytes of token ids (inverse of {@link tokenizeBytes}; zero padding is dropped).
 * @public
 * @category Tokens
 */
export function detokenizeBytes(tokens: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(tokens.length * BYTES_PER_TOKEN);
  let n = 0;
  for (let t = 0; t < tokens.length; t++) {
    const id = tokens[t] ?? 0;
    for (let k = 0; k < BYTES_PER_TOKEN; k++) {
      const b = (id >>> (8 * k)) & 0xff;
      if (b !== 0) out[n++] = b;
    }
  }
  return out.subarray(0, n);
}

/**
 * Text of token ids (inverse of {@link tokenizeText}). Invalid UTF-8 (a multi-byte character cut
 * by a token range) decodes to U+FFFD, as a real detokenizer would.
 * @public
 * @category Tokens
 */
export function detokenize(tokens: ArrayLike<number>): string {
  return decoder.decode(detokenizeBytes(tokens));
}

/**
 * Number of tokens {@link tokenizeText} would return, without allocating them.
 * @public
 * @category Tokens
 */
export function countTextTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text, 'utf8') / BYTES_PER_TOKEN);
}
