import type { KvDecodeError } from './types.js';

/**
 * Bounds of one KV-event payload, checked on the raw msgpack bytes before anything is decoded.
 * @public
 * @category KV events
 */
export interface KvDecodeLimits {
  /** Largest payload accepted. @defaultValue 8 MiB */
  readonly maxPayloadBytes?: number;
  /** Most values (array elements, map keys and values, scalars) in one payload. @defaultValue 1,000,000 */
  readonly maxValues?: number;
  /** Deepest nesting of arrays and maps. @defaultValue 16 */
  readonly maxDepth?: number;
}

/**
 * Defaults of {@link KvDecodeLimits}. @public
 * @category KV events
 */
export const DEFAULT_KV_DECODE_LIMITS: Required<KvDecodeLimits> = Object.freeze({
  maxPayloadBytes: 8 * 1024 * 1024,
  maxValues: 1_000_000,
  maxDepth: 16,
});

/** Bytes of payload after the type byte, for fixed-size msgpack types (0 = not fixed). */
function fixedSize(t: number): number {
  if (t === 0xca) return 4;
  if (t === 0xcb) return 8;
  if (t >= 0xcc && t <= 0xd3) return 1 << (t - 0xcc) % 4;
  if (t >= 0xd4 && t <= 0xd8) return 1 + (1 << (t - 0xd4));
  return 0;
}

const tooBig = (message: string): KvDecodeError => ({ cause: 'limit-exceeded', message });
const malformed = (message: string): KvDecodeError => ({ cause: 'malformed-msgpack', message });

function readLength(b: Uint8Array, at: number, width: number): number {
  if (width === 1) return b[at] as number;
  if (width === 2) return ((b[at] as number) << 8) | (b[at + 1] as number);
  return ((b[at] as number) * 0x1000000) + (((b[at + 1] as number) << 16) | ((b[at + 2] as number) << 8) | (b[at + 3] as number));
}

/**
 * Walks the msgpack structure of `payload` without allocating and returns why it exceeds the
 * limits (`limit-exceeded`) or lies about its own size (`malformed-msgpack`), or undefined. Every length a header claims is checked against the
 * bytes left, before a decoder could allocate for it: an array header claiming 30 million
 * elements in a 6-byte message is rejected here in microseconds (a general decoder allocates the
 * array first, ~230 MB, and only then finds the data missing). Truncated input is reported too.
 * @internal
 */
export function exceedsKvLimits(payload: Uint8Array, limits: Required<KvDecodeLimits>): KvDecodeError | undefined {
  const n = payload.byteLength;
  if (n > limits.maxPayloadBytes) return tooBig(`payload: ${n} bytes exceeds the limit of ${limits.maxPayloadBytes}`);
  // remaining[d] = values still expected at depth d; depth 0 holds the one top-level value.
  const remaining: number[] = [1];
  let values = 0;
  let pos = 0;
  while (remaining.length > 0) {
    const top = remaining.length - 1;
    if (remaining[top] === 0) {
      remaining.pop();
      continue;
    }
    remaining[top] = (remaining[top] as number) - 1;
    if (++values > limits.maxValues) return tooBig(`payload: more than ${limits.maxValues} values`);
    if (pos >= n) return malformed('payload: truncated');
    const start = pos;
    const t = payload[pos++] as number;
    let children = 0;
    let skip = 0;
    if (t <= 0x7f || t >= 0xe0 || (t >= 0xc0 && t <= 0xc3)) skip = 0;
    else if (t <= 0x8f) children = 2 * (t & 0x0f);
    else if (t <= 0x9f) children = t & 0x0f;
    else if (t <= 0xbf) skip = t & 0x1f;
    else if (fixedSize(t) > 0) skip = fixedSize(t);
    else {
      // Variable-length types: str/bin/ext 8/16/32 and array/map 16/32.
      const width = t === 0xc4 || t === 0xc7 || t === 0xd9 ? 1 : t === 0xc5 || t === 0xc8 || t === 0xda || t === 0xdc || t === 0xde ? 2 : 4;
      if (pos + width > n) return malformed('payload: truncated');
      const len = readLength(payload, pos, width);
      pos += width;
      if (t === 0xdc || t === 0xdd) children = len;
      else if (t === 0xde || t === 0xdf) children = 2 * len;
      else skip = len + (t >= 0xc7 && t <= 0xc9 ? 1 : 0);
    }
    if (skip > n - pos) return malformed(`payload: the value at byte ${start} claims ${skip} bytes, only ${n - pos} left`);
    pos += skip;
    if (children > 0) {
      // Each value takes at least one byte, so a header can never honestly claim more than is left.
      if (children > n - pos) return malformed(`payload: the container at byte ${start} claims ${children} values, only ${n - pos} bytes left`);
      if (remaining.length >= limits.maxDepth) return tooBig(`payload: nesting deeper than ${limits.maxDepth}`);
      remaining.push(children);
    }
  }
  return undefined;
}
