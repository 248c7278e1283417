import type { PromptView } from '@switchyard/core';

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Rounds `n` up to a multiple of 4 (one pseudo-token). */
function padded(n: number): number {
  return (n + 3) & ~3;
}

/**
 * Encodes strings back to back into one zero-padded buffer whose length is a multiple of 4, so the
 * bytes read as little-endian uint32 pseudo-tokens. One allocation, no concatenated string (joining
 * first is no faster for a short chat and copies the whole conversation for a long one).
 */
function packStrings(parts: readonly string[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += Buffer.byteLength(part, 'utf8');
  const total = padded(length);
  const buf = Buffer.allocUnsafe(total);
  let offset = 0;
  for (const part of parts) offset += buf.write(part, offset, 'utf8');
  buf.fill(0, offset, total);
  return buf;
}

/**
 * Packs token ids as little-endian uint32 bytes (the same layout as the estimate backend's
 * pseudo-tokens, so both hash identically). A `Uint32Array` on a little-endian machine is viewed,
 * not copied.
 * @public
 * @category Hashing
 */
export function tokensToBytes(tokens: ArrayLike<number>): Uint8Array {
  const n = tokens.length;
  if (LITTLE_ENDIAN && tokens instanceof Uint32Array) return new Uint8Array(tokens.buffer, tokens.byteOffset, n * 4);
  if (LITTLE_ENDIAN) {
    const words = new Uint32Array(n);
    for (let i = 0; i < n; i++) words[i] = (tokens[i] as number) >>> 0;
    return new Uint8Array(words.buffer, 0, n * 4);
  }
  const out = new Uint8Array(n * 4);
  const view = new DataView(out.buffer);
  for (let i = 0; i < n; i++) view.setUint32(i * 4, (tokens[i] as number) >>> 0, true);
  return out;
}

/**
 * Reads little-endian uint32 pseudo-tokens back as numbers (used when a consumer needs token ids
 * but only estimated bytes exist).
 * @public
 * @category Hashing
 */
export function bytesToTokens(bytes: Uint8Array): number[] {
  const n = bytes.byteLength >>> 2;
  const view = new DataView(bytes.buffer, bytes.byteOffset, n * 4);
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = view.getUint32(i * 4, true);
  return out;
}

/**
 * The estimate backend's view of a prompt: bytes grouped into 4-byte little-endian pseudo-tokens,
 * zero-padded, one buffer per prompt. Text prompts are their UTF-8 bytes; a chat is the tools JSON
 * followed by, per message, role + content (+ tool calls JSON), with no separators, so the whole
 * conversation is covered and a new turn extends the previous request's bytes. Token-id prompts
 * pass through as uint32 LE. `none` yields no prompts.
 * @public
 * @category Hashing
 */
export function encodePromptBytes(prompt: PromptView): Uint8Array[] {
  switch (prompt.kind) {
    case 'text':
      return prompt.texts.map((t) => packStrings([t]));
    case 'chat': {
      const parts: string[] = [];
      if (prompt.toolsJson !== undefined) parts.push(prompt.toolsJson);
      for (const m of prompt.messages) {
        parts.push(m.role, m.content);
        if (m.toolCallsJson !== undefined) parts.push(m.toolCallsJson);
      }
      return Array.of(packStrings(parts));
    }
    case 'tokens':
      return prompt.tokenIds.map((ids) => tokensToBytes(ids));
    case 'none':
      return [];
  }
}

/**
 * Number of pseudo-tokens of encoded prompts (bytes / 4, summed).
 * @public
 * @category Hashing
 */
export function pseudoTokenCount(prompts: readonly Uint8Array[]): number {
  let n = 0;
  for (const p of prompts) n += p.byteLength >>> 2;
  return n;
}
