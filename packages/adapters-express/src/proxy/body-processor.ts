import type { Usage } from '@switchyard/core';
import { extractUsage, extractUsageFromBytes, mergeUsage } from './usage.js';

/**
 * Watches (and when needed rewrites) an upstream response body on its way to the client.
 * Bytes are handled as latin1 strings: every byte maps to one char and back, so non-ASCII text
 * passes through unchanged while the ASCII keys we look for are found cheaply.
 * @public
 */
export interface BodyProcessor {
  /** Bytes to send to the client now for this upstream chunk (possibly the chunk itself), or undefined. */
  push(chunk: Buffer): Buffer | undefined;
  /** Bytes still held back at the end of the body, or undefined. */
  end(): Buffer | undefined;
  /** Token usage seen so far. */
  readonly usage: Usage | undefined;
  /** True when the body may change length (drop upstream `content-length`). */
  readonly rewrites: boolean;
}

/**
 * Options of {@link createBodyProcessor}.
 * @public
 */
export interface BodyProcessorOptions {
  /** Upstream `content-type` (decides SSE vs JSON vs opaque). */
  readonly contentType: string | undefined;
  /** Restore the client's model name: replace the first `"model":"<from>"` of each JSON document with `<to>`. */
  readonly rewriteModel?: { readonly from: string; readonly to: string } | undefined;
  /** Longest line (SSE) or body tail (JSON) kept for usage scanning, in bytes. @default 65536 */
  readonly scanLimitBytes?: number;
}

/** JSON-encodes a model name and returns its UTF-8 bytes as a latin1 string. */
const wireString = (name: string): string => Buffer.from(JSON.stringify(name), 'utf8').toString('latin1');
const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Replaces the first `"model": "<from>"` (any spacing) in `text`. */
function modelReplacer(from: string, to: string): (text: string) => string {
  const pattern = new RegExp(`"model"\\s*:\\s*${escapeRegExp(wireString(from))}`);
  const replacement = `"model":${wireString(to)}`;
  return (text) => text.replace(pattern, () => replacement);
}

class SseProcessor implements BodyProcessor {
  usage: Usage | undefined;
  get rewrites(): boolean {
    return this.#rewrite !== undefined;
  }
  #carry = '';
  readonly #rewrite: ((text: string) => string) | undefined;
  readonly #limit: number;

  constructor(rewrite: ((text: string) => string) | undefined, limit: number) {
    this.#rewrite = rewrite;
    this.#limit = limit;
  }

  push(chunk: Buffer): Buffer | undefined {
    const text = this.#carry + chunk.toString('latin1');
    const cut = text.lastIndexOf('\n') + 1;
    const complete = text.slice(0, cut);
    this.#carry = text.slice(cut);
    if (complete.includes('"usage"')) this.#scan(complete);
    if (this.#rewrite === undefined) {
      // Pass-through: the carry is only kept for scanning; a runaway line stops being tracked.
      if (this.#carry.length > this.#limit) this.#carry = '';
      return chunk;
    }
    if (this.#carry.length > this.#limit) {
      // A line this long is not an SSE event we understand: release it untouched.
      const out = complete + this.#carry;
      this.#carry = '';
      return Buffer.from(out, 'latin1');
    }
    return complete.length === 0 ? undefined : Buffer.from(this.#rewriteLines(complete), 'latin1');
  }

  end(): Buffer | undefined {
    const rest = this.#carry;
    this.#carry = '';
    if (rest.includes('"usage"')) this.#scan(rest);
    if (this.#rewrite === undefined || rest.length === 0) return undefined;
    return Buffer.from(this.#rewriteLines(rest), 'latin1');
  }

  #rewriteLines(text: string): string {
    const rewrite = this.#rewrite;
    if (rewrite === undefined || !text.includes('"model"')) return text;
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as string;
      if (line.startsWith('data:') && line.includes('"model"')) lines[i] = rewrite(line);
    }
    return lines.join('\n');
  }

  #scan(text: string): void {
    for (const line of text.split('\n')) {
      if (line.startsWith('data:') && line.includes('"usage"')) this.usage = mergeUsage(this.usage, extractUsage(line));
    }
  }
}

class JsonProcessor implements BodyProcessor {
  usage: Usage | undefined;
  get rewrites(): boolean {
    return this.#rewrite !== undefined;
  }
  #chunks: Buffer[] = [];
  #bytes = 0;
  readonly #rewrite: ((text: string) => string) | undefined;
  readonly #limit: number;

  constructor(rewrite: ((text: string) => string) | undefined, limit: number) {
    this.#rewrite = rewrite;
    this.#limit = limit;
  }

  push(chunk: Buffer): Buffer | undefined {
    this.#chunks.push(chunk);
    this.#bytes += chunk.length;
    if (this.#rewrite !== undefined) return undefined; // the whole document is needed to rewrite it
    if (this.#bytes > 2 * this.#limit) this.#trim();
    return chunk;
  }

  end(): Buffer | undefined {
    const chunks = this.#chunks;
    const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, this.#bytes);
    this.#chunks = [];
    if (this.#rewrite === undefined) {
      this.usage = extractUsageFromBytes(bytes);
      return undefined;
    }
    const text = bytes.toString('latin1');
    this.usage = extractUsage(text);
    return Buffer.from(this.#rewrite(text), 'latin1');
  }

  /** Keeps roughly the last `limit` bytes: usage sits at the end of a completion body. */
  #trim(): void {
    const kept: Buffer[] = [];
    let bytes = 0;
    for (let i = this.#chunks.length - 1; i >= 0 && bytes < this.#limit; i--) {
      const c = this.#chunks[i] as Buffer;
      kept.push(c);
      bytes += c.length;
    }
    this.#chunks = kept.reverse();
    this.#bytes = bytes;
  }
}

class OpaqueProcessor implements BodyProcessor {
  readonly usage: Usage | undefined = undefined;
  readonly rewrites = false;
  push(chunk: Buffer): Buffer {
    return chunk;
  }
  end(): undefined {
    return undefined;
  }
}

/**
 * Chooses the processor for a response: SSE streams are forwarded event by event (never
 * buffered), JSON bodies are scanned for usage (and buffered only when the model name must be
 * restored), anything else passes through untouched.
 * @public
 */
export function createBodyProcessor(options: BodyProcessorOptions): BodyProcessor {
  const type = (options.contentType ?? '').toLowerCase();
  const limit = options.scanLimitBytes ?? 65_536;
  const r = options.rewriteModel;
  const rewrite = r !== undefined && r.from !== r.to ? modelReplacer(r.from, r.to) : undefined;
  if (type.startsWith('text/event-stream')) return new SseProcessor(rewrite, limit);
  if (type.startsWith('application/json')) return new JsonProcessor(rewrite, limit);
  return new OpaqueProcessor();
}
