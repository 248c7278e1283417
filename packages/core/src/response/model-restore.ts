/**
 * Restores the client's model name in response bytes after a model rewrite, as they stream: the
 * first `"model": "<from>"` in key position (after `{` or `,`, any JSON whitespace around the
 * colon) of each JSON document becomes `"model":"<to>"`. A JSON body is one document; in an SSE
 * stream every line is one. Later occurrences in the same document (a nested object, an echoed
 * request) stay as the model server wrote them, and escaped text inside strings never matches.
 *
 * Memory is bounded whatever the body size: at most one unfinished candidate (the key, a few bytes
 * of whitespace and the name) is held between chunks; everything else is forwarded at once, and
 * once a document's name is restored its bytes pass through untouched.
 */

const KEY = Buffer.from('"model"');
const NEWLINE = 0x0a;
/** Whitespace accepted on each side of the colon; a longer run is not a name we restore. */
const MAX_SPACE = 16;

const isSpace = (c: number | undefined): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** A match at a position: its end, `NO_MATCH`, or `NEED_MORE` when the bytes end inside a candidate. */
const NO_MATCH = -1;
const NEED_MORE = -2;

/** The index after the whitespace at `i`, or `NO_MATCH` past {@link MAX_SPACE} bytes of it. */
function skipSpace(buf: Buffer, i: number): number {
  const limit = i + MAX_SPACE;
  while (i < buf.length && isSpace(buf[i])) {
    if (i === limit) return NO_MATCH;
    i++;
  }
  return i;
}

/**
 * The streaming model-name restorer used by {@link createResponseBodyReader}.
 * @category Response
 * @public
 */
export class ModelNameRestorer {
  readonly #value: Buffer;
  readonly #replacement: Buffer;
  readonly #perLine: boolean;
  /** Held bytes: an unfinished candidate from the previous chunk. */
  #carry: Buffer | undefined;
  /** The current document's name was restored (until the next line, in per-line mode). */
  #done = false;
  /** The last non-whitespace byte already forwarded (decides key position across chunks). */
  #lastByte = -1;
  #restored = 0;

  /**
   * @param from - the model name the request was rewritten to (what the model server echoes)
   * @param to - the model name the client asked for
   * @param perLine - every line is its own document (SSE)
   */
  constructor(from: string, to: string, perLine: boolean) {
    this.#value = Buffer.from(JSON.stringify(from));
    this.#replacement = Buffer.from(`"model":${JSON.stringify(to)}`);
    this.#perLine = perLine;
  }

  /** How many names were restored so far. */
  get restored(): number {
    return this.#restored;
  }

  /** The bytes to forward for `chunk` (the same object when nothing changed or was held), or undefined when all of it is held. */
  push(chunk: Uint8Array): Uint8Array | undefined {
    if (this.#done && !this.#perLine) return chunk.length === 0 ? undefined : chunk;
    const input = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const held = this.#carry;
    this.#carry = undefined;
    const buf = held === undefined ? input : Buffer.concat([held, input]);
    const parts: Buffer[] = [];
    let from = 0;
    let search = 0;
    while (search < buf.length) {
      if (this.#done) {
        if (!this.#perLine) break;
        const nl = buf.indexOf(NEWLINE, search);
        if (nl === -1) break;
        this.#done = false;
        search = nl + 1;
        continue;
      }
      const at = buf.indexOf(KEY, search);
      if (at === -1) {
        // The tail may be the start of the key: hold it until the next chunk tells.
        this.#carry = this.#partialKey(buf, Math.max(search, buf.length - (KEY.length - 1)));
        break;
      }
      const end = this.#matchAt(buf, at);
      if (end === NEED_MORE) {
        this.#carry = Buffer.from(buf.subarray(at));
        break;
      }
      if (end === NO_MATCH || !this.#inKeyPosition(buf, at)) {
        search = at + 1;
        continue;
      }
      parts.push(buf.subarray(from, at), this.#replacement);
      from = end;
      search = end;
      this.#done = true;
      this.#restored++;
    }
    const stop = this.#carry === undefined ? buf.length : buf.length - this.#carry.length;
    this.#remember(buf, stop);
    if (from === 0) {
      // Nothing restored: forward what is not held, without copying.
      if (stop === 0) return undefined;
      if (stop === buf.length) return buf === input ? chunk : buf;
      return buf.subarray(0, stop);
    }
    if (stop > from) parts.push(buf.subarray(from, stop));
    return Buffer.concat(parts);
  }

  /** The bytes still held at the end of the body. */
  end(): Uint8Array | undefined {
    const held = this.#carry;
    this.#carry = undefined;
    return held;
  }

  /** The shortest tail of `buf` from `keep` that is a prefix of the key, or undefined. */
  #partialKey(buf: Buffer, keep: number): Buffer | undefined {
    for (let i = keep; i < buf.length; i++) {
      if (buf[i] === 0x22 && KEY.subarray(0, buf.length - i).equals(buf.subarray(i))) return Buffer.from(buf.subarray(i));
    }
    return undefined;
  }

  /** Matches `"model"`, whitespace, `:`, whitespace, `"<from>"` at `at`. */
  #matchAt(buf: Buffer, at: number): number {
    let i = at + KEY.length;
    i = skipSpace(buf, i);
    if (i === NO_MATCH) return NO_MATCH;
    if (i >= buf.length) return NEED_MORE;
    if (buf[i] !== 0x3a /* : */) return NO_MATCH;
    i = skipSpace(buf, i + 1);
    if (i === NO_MATCH) return NO_MATCH;
    const value = this.#value;
    const available = Math.min(value.length, buf.length - i);
    if (buf.compare(value, 0, available, i, i + available) !== 0) return NO_MATCH;
    return available < value.length ? NEED_MORE : i + value.length;
  }

  /** True when the key at `at` follows `{` or `,` (looking back over whitespace, into forwarded bytes). */
  #inKeyPosition(buf: Buffer, at: number): boolean {
    let i = at - 1;
    while (i >= 0 && isSpace(buf[i])) i--;
    const before = i >= 0 ? (buf[i] as number) : this.#lastByte;
    return before === 0x7b /* { */ || before === 0x2c; /* , */
  }

  #remember(buf: Buffer, stop: number): void {
    for (let i = stop - 1; i >= 0; i--) {
      const c = buf[i] as number;
      if (!isSpace(c)) {
        this.#lastByte = c;
        return;
      }
    }
  }
}
