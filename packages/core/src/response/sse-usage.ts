import type { Usage } from '../scheduling/plugins.js';
import { extractUsage } from './extract-usage.js';
import { extractMetaInfoUsage } from './meta-info-usage.js';
import { mergeUsage } from './usage.js';

const NEWLINE = 0x0a;
const DATA = Buffer.from('data:');
const USAGE = Buffer.from('"usage"');
const META_INFO = Buffer.from('"meta_info"');

/**
 * Reads token usage from a Server-Sent Events body fed chunk by chunk, without holding the body:
 * it keeps only the unfinished last line, up to `maxLineBytes` (a longer line is not a usage
 * event and is skipped). Only `data:` lines that mention `"usage"` are read, with
 * {@link extractUsage}, or else SGLang's `"meta_info"` of the finished event; usage reported in
 * pieces is merged with {@link mergeUsage}.
 * @category Response
 * @public
 */
export class SseUsageScanner {
  readonly #maxLineBytes: number;
  #carry: Buffer[] = [];
  #carryBytes = 0;
  #skipping = false;
  #usage: Usage | undefined;

  /** @param maxLineBytes - longest unfinished line kept between chunks. @defaultValue 65536 */
  constructor(maxLineBytes = 65_536) {
    this.#maxLineBytes = maxLineBytes;
  }

  /** Usage seen so far, or undefined when the stream reported none. */
  get usage(): Usage | undefined {
    return this.#usage;
  }

  /** Feeds the next chunk of the body. */
  push(chunk: Uint8Array): void {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    for (let nl = buf.indexOf(NEWLINE, start); nl !== -1; nl = buf.indexOf(NEWLINE, start)) {
      if (this.#skipping) {
        this.#skipping = false;
        this.#dropCarry();
      } else if (this.#carryBytes > 0) {
        this.#carry.push(buf.subarray(start, nl));
        this.#line(Buffer.concat(this.#carry));
        this.#dropCarry();
      } else this.#line(buf.subarray(start, nl));
      start = nl + 1;
    }
    if (start === buf.length || this.#skipping) return;
    const rest = buf.subarray(start);
    if (this.#carryBytes + rest.length > this.#maxLineBytes) {
      this.#dropCarry();
      this.#skipping = true;
      return;
    }
    // Copied: the caller may reuse its buffer once the chunk is forwarded.
    this.#carry.push(Buffer.from(rest));
    this.#carryBytes += rest.length;
  }

  /** Reads the last line (a stream may end without a trailing newline). */
  end(): void {
    if (!this.#skipping && this.#carryBytes > 0) this.#line(Buffer.concat(this.#carry));
    this.#dropCarry();
    this.#skipping = false;
  }

  #dropCarry(): void {
    this.#carry = [];
    this.#carryBytes = 0;
  }

  #line(line: Buffer): void {
    if (line.length < DATA.length || line.compare(DATA, 0, DATA.length, 0, DATA.length) !== 0) return;
    if (line.indexOf(USAGE, DATA.length) !== -1) this.#usage = mergeUsage(this.#usage, extractUsage(line.subarray(DATA.length)));
    // SGLang's native generate streams `meta_info` in every event; only the finished one counts, as in llm-d.
    else if (line.indexOf(META_INFO, DATA.length) !== -1) this.#usage = mergeUsage(this.#usage, extractMetaInfoUsage(line.subarray(DATA.length), true));
  }
}
