import type { Usage } from '../scheduling/plugins.js';
import { usageOf } from './usage.js';

/**
 * Reads the token counts of a `usage` object straight from bytes, without `JSON.parse`: every
 * response passes through here, and parsing even this small object cost more than the rest of the
 * usage extraction. Handles the shapes model servers send (integer counts, `null`, one level of
 * nested detail objects); returns `FALLBACK` on anything else, and the caller parses the slice.
 * Semantics are `usageFromWire`'s, which the property test in usage.test.ts checks.
 */

/** Returned when the object is not in the simple shape; the caller falls back to `JSON.parse`. */
export const FALLBACK = Symbol('fallback');

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN = 0x7b;
const CLOSE = 0x7d;

/** The keys that matter; their position is the slot of {@link Counts} they fill (details keys fill none). */
const KEYS = [
  'prompt_tokens',
  'completion_tokens',
  'input_tokens',
  'output_tokens',
  'cache_read_input_tokens',
  'prompt_tokens_details',
  'input_tokens_details',
  'cached_tokens',
].map((k) => Uint8Array.from(k, (ch) => ch.charCodeAt(0)));
const PROMPT = 0;
const COMPLETION = 1;
const INPUT = 2;
const OUTPUT = 3;
const CACHE_READ = 4;
const PROMPT_DETAILS = 5;
const INPUT_DETAILS = 6;
const CACHED_KEY = 7;
/** Slots of the nested `cached_tokens` counts (they reuse the details keys' positions). */
const CACHED_PROMPT = PROMPT_DETAILS;
const CACHED_INPUT = INPUT_DETAILS;
/** A valid key that is not one of {@link KEYS}, or a nested object whose counts are ignored. */
const OTHER = -1;
/** Not the simple shape. */
const INVALID = -2;

/** Counts gathered while scanning, by slot (-1 = absent or null). */
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

  /** A quoted key of `[a-z_]` and its colon: the key's index in {@link KEYS}, `OTHER`, or `INVALID`. */
  key(): number {
    if (this.peek() !== QUOTE) return INVALID;
    const buf = this.buf;
    const from = ++this.pos;
    while (this.pos < this.end) {
      const c = buf[this.pos] as number;
      if (c === QUOTE) {
        const slot = keyIndex(buf, from, this.pos);
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

function keyIndex(buf: Uint8Array, from: number, to: number): number {
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
 * Reads `{ key: count | null | {...}, ... }` into `counts`. At the top level (`cachedSlot`
 * undefined) the count keys fill their slots and the two details objects are read one level deep;
 * inside one, only `cached_tokens` counts, into `cachedSlot` (`OTHER`: ignored). As with
 * `JSON.parse`, the last duplicate key wins, and an object where a count is expected counts as absent.
 */
function scanObject(s: Scanner, counts: Counts, cachedSlot: number | undefined): boolean {
  if (s.peek() !== OPEN) return false;
  s.pos++;
  if (s.peek() === CLOSE) {
    s.pos++;
    return true;
  }
  const nested = cachedSlot !== undefined;
  for (;;) {
    const key = s.key();
    if (key === INVALID) return false;
    const target = nested ? (key === CACHED_KEY ? cachedSlot : OTHER) : key <= CACHE_READ && key >= 0 ? key : OTHER;
    if (target !== OTHER) counts[target] = -1;
    const details = !nested && (key === PROMPT_DETAILS || key === INPUT_DETAILS);
    if (details) counts[key === PROMPT_DETAILS ? CACHED_PROMPT : CACHED_INPUT] = -1;
    if (s.peek() === OPEN) {
      if (nested || !scanObject(s, counts, details ? (key === PROMPT_DETAILS ? CACHED_PROMPT : CACHED_INPUT) : OTHER)) return false;
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

const known = (n: number): number | undefined => (n >= 0 ? n : undefined);

/**
 * The usage in the JSON object starting at `buf[start]` (read up to its closing brace, whatever
 * follows), with `usageFromWire`'s semantics, or `FALLBACK` when the object is not in the simple
 * shape or not closed.
 */
export function scanUsage(buf: Uint8Array, start: number): Usage | undefined | typeof FALLBACK {
  const s = new Scanner(buf, start, buf.length);
  const c: Counts = [-1, -1, -1, -1, -1, -1, -1];
  if (!scanObject(s, c, undefined)) return FALLBACK;
  const cached = known(c[CACHED_PROMPT]) ?? known(c[CACHED_INPUT]) ?? known(c[CACHE_READ]);
  return usageOf(known(c[PROMPT]) ?? known(c[INPUT]), known(c[COMPLETION]) ?? known(c[OUTPUT]), cached);
}
