import type { Usage } from '@switchyard/core';

/**
 * Reads the token counts of a `usage` object straight from bytes, without `JSON.parse`: every
 * response passes through here, and parsing even this small object cost more than the rest of the
 * usage extraction. Handles the shapes model servers send (integer counts, `null`, one level of
 * nested detail objects); returns `FALLBACK` on anything else, and the caller parses the slice.
 */

/** Returned when the object is not in the simple shape; the caller falls back to `JSON.parse`. */
export const FALLBACK = Symbol('fallback');

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN = 0x7b;
const CLOSE = 0x7d;

/** The keys that matter, by position; a slot of {@link Counts}. */
const KEYS = ['prompt_tokens', 'completion_tokens', 'input_tokens', 'output_tokens', 'cache_read_input_tokens', 'prompt_tokens_details', 'cached_tokens'].map((k) =>
  Uint8Array.from(k, (ch) => ch.charCodeAt(0)),
);
const PROMPT = 0;
const COMPLETION = 1;
const INPUT = 2;
const OUTPUT = 3;
const CACHE_READ = 4;
const DETAILS = 5;
const CACHED = 6;
/** A valid key that is not one of {@link KEYS}. */
const OTHER = -1;
/** Not the simple shape. */
const INVALID = -2;

/** Counts gathered while scanning, by key slot (-1 = absent or null); `cached` is the nested one. */
type Counts = [number, number, number, number, number, number, number];

/** A cursor over `buf` from `pos` to `end` (exclusive). */
class Scanner {
  readonly buf: Uint8Array;
  readonly end: number;
  pos: number;

  constructor(buf: Uint8Array, start: number, end: number) {
    this.buf = buf;
    this.pos = start;
    this.end = end;
  }

  /** Skips JSON whitespace and returns the next byte (-1 at the end). */
  peek(): number {
    const buf = this.buf;
    while (this.pos < this.end) {
      const c = buf[this.pos] as number;
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return c;
      this.pos++;
    }
    return -1;
  }

  /** A quoted key of `[a-z_]` and its colon: the key's slot, `OTHER`, or `INVALID`. */
  key(): number {
    if (this.peek() !== QUOTE) return INVALID;
    const buf = this.buf;
    const from = ++this.pos;
    while (this.pos < this.end) {
      const c = buf[this.pos] as number;
      if (c === QUOTE) {
        const slot = slotOf(buf, from, this.pos);
        this.pos++;
        if (this.peek() !== COLON) return INVALID;
        this.pos++;
        return slot;
      }
      if (!((c >= 0x61 && c <= 0x7a) || c === 0x5f)) return INVALID;
      this.pos++;
    }
    return INVALID;
  }

  /** A non-negative integer below 10^15 (exact in a double), `null` (-1), or `INVALID`. */
  count(): number {
    const buf = this.buf;
    let c = this.peek();
    const first = this.pos;
    if (c === 0x6e /* n */) {
      if (first + 4 <= this.end && buf[first + 1] === 0x75 && buf[first + 2] === 0x6c && buf[first + 3] === 0x6c) {
        this.pos = first + 4;
        return -1;
      }
      return INVALID;
    }
    let n = 0;
    let digits = 0;
    while (c >= 0x30 && c <= 0x39 && digits < 15) {
      n = n * 10 + (c - 0x30);
      digits++;
      c = ++this.pos < this.end ? (buf[this.pos] as number) : -1;
    }
    // A fraction, exponent, sign, leading zero or a longer number is left to JSON.parse.
    if (digits === 0 || c === 0x2e || c === 0x65 || c === 0x45 || (c >= 0x30 && c <= 0x39)) return INVALID;
    if (digits > 1 && buf[first] === 0x30) return INVALID;
    return n;
  }
}

function slotOf(buf: Uint8Array, from: number, to: number): number {
  const length = to - from;
  for (let slot = 0; slot < KEYS.length; slot++) {
    const key = KEYS[slot] as Uint8Array;
    if (key.length !== length) continue;
    let i = 0;
    while (i < length && buf[from + i] === key[i]) i++;
    if (i === length) return slot;
  }
  return OTHER;
}

/**
 * Reads `{ key: count | null | {...}, ... }` into `counts` (top-level slots, and `cached_tokens`
 * inside `prompt_tokens_details`). As with `JSON.parse`, the last duplicate key wins, and an
 * object where a count is expected counts as absent.
 */
function scanObject(s: Scanner, counts: Counts, nested: boolean, inDetails: boolean): boolean {
  if (s.peek() !== OPEN) return false;
  s.pos++;
  if (s.peek() === CLOSE) {
    s.pos++;
    return true;
  }
  for (;;) {
    const slot = s.key();
    if (slot === INVALID) return false;
    const target = nested ? (inDetails && slot === CACHED ? CACHED : OTHER) : slot === CACHED ? OTHER : slot;
    if (target !== OTHER) counts[target] = -1;
    if (!nested && slot === DETAILS) counts[CACHED] = -1;
    if (s.peek() === OPEN) {
      if (nested || !scanObject(s, counts, true, slot === DETAILS)) return false;
    } else {
      const v = s.count();
      if (v === INVALID) return false;
      if (target !== OTHER) counts[target] = v;
    }
    const c = s.peek();
    s.pos++;
    if (c === CLOSE) return true;
    if (c !== COMMA) return false;
  }
}

/**
 * The usage in the JSON object starting at `buf[start]` (read up to its closing brace, whatever
 * follows), with `usageFromWire`'s semantics, or `FALLBACK` when the object is not in the simple
 * shape or not closed.
 */
export function scanUsage(buf: Uint8Array, start: number): Usage | undefined | typeof FALLBACK {
  const s = new Scanner(buf, start, buf.length);
  const c: Counts = [-1, -1, -1, -1, -1, -1, -1];
  if (!scanObject(s, c, false, false)) return FALLBACK;
  const prompt = c[PROMPT] >= 0 ? c[PROMPT] : c[INPUT];
  const completion = c[COMPLETION] >= 0 ? c[COMPLETION] : c[OUTPUT];
  if (prompt < 0 && completion < 0) return undefined;
  const cached = c[CACHED] >= 0 ? c[CACHED] : c[CACHE_READ];
  const usage: { promptTokens: number; completionTokens: number; cachedTokens?: number } = {
    promptTokens: prompt >= 0 ? prompt : 0,
    completionTokens: completion >= 0 ? completion : 0,
  };
  if (cached >= 0) usage.cachedTokens = cached;
  return usage;
}
