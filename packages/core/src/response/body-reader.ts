import type { Usage } from '../scheduling/plugins.js';
import { extractUsage } from './extract-usage.js';
import { extractMetaInfoUsage } from './meta-info-usage.js';
import { ModelNameRestorer } from './model-restore.js';
import { SseUsageScanner } from './sse-usage.js';

/**
 * How a response body is read: `sse` event by event, `json` as one document, `grpc` by the JSON
 * its messages wrap (Vertex AI's `HttpBody`; read for usage, never rewritten), `opaque` not at all.
 * @category Response
 * @public
 */
export type ResponseBodyKind = 'sse' | 'json' | 'grpc' | 'opaque';

/**
 * The body kind of a response from its `content-type`: `text/event-stream` is SSE, any `json`
 * type (`application/json`, `application/problem+json`…) is JSON, `application/grpc` (and its
 * `+proto` forms) is gRPC, a missing type follows what
 * the request asked for (a stream or not), anything else is opaque.
 * @category Response
 * @public
 */
export function responseBodyKind(contentType: string | undefined, requestedStream = false): ResponseBodyKind {
  const type = (contentType ?? '').toLowerCase();
  if (type.includes('text/event-stream')) return 'sse';
  if (type.includes('json')) return 'json';
  if (type.startsWith('application/grpc')) return 'grpc';
  if (type.trim() === '') return requestedStream ? 'sse' : 'json';
  return 'opaque';
}

/**
 * Options of {@link createResponseBodyReader}.
 * @category Response
 * @public
 */
export interface ResponseBodyReaderOptions {
  /** Upstream `content-type` (decides SSE, JSON or opaque; see {@link responseBodyKind}). */
  readonly contentType: string | undefined;
  /** The request asked for a stream (used when the response has no content type). @defaultValue false */
  readonly requestedStream?: boolean | undefined;
  /** Restore the client's model name after a rewrite: `from` is what the model server echoes, `to` what the client sent. */
  readonly restoreModel?: { readonly from: string; readonly to: string } | undefined;
  /** Longest SSE line, and the JSON body tail, kept for usage scanning, in bytes. @defaultValue 65536 */
  readonly scanLimitBytes?: number | undefined;
}

/**
 * Reads (and where needed rewrites) an upstream response body on its way to the client. Both
 * adapters drive one per response: feed each chunk to `push` and forward what it returns, then
 * forward what `end` returns. Memory stays bounded by `scanLimitBytes` plus a few bytes whatever
 * the body size: nothing is buffered to restore the model name.
 * @category Response
 * @public
 */
export interface ResponseBodyReader {
  /** How the body is read. */
  readonly kind: ResponseBodyKind;
  /** Bytes to forward now for this chunk (often the chunk itself), or undefined when nothing is due yet. */
  push(chunk: Uint8Array): Uint8Array | undefined;
  /** Bytes still held at the end of the body, or undefined; also finishes usage reading. */
  end(): Uint8Array | undefined;
  /** Token usage read so far (complete after `end`). */
  readonly usage: Usage | undefined;
  /** True when the body may change length (the adapter drops the upstream `content-length`). */
  readonly rewrites: boolean;
  /** Model names restored so far. */
  readonly restored: number;
}

/** Keeps the last `limit`-or-so bytes of a body: usage sits at the end of a JSON document. */
class Tail {
  #chunks: Uint8Array[] = [];
  #bytes = 0;
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  add(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.#chunks.push(chunk);
    this.#bytes += chunk.length;
    if (this.#bytes > 2 * this.#limit) this.#trim();
  }

  bytes(): Uint8Array {
    const chunks = this.#chunks;
    this.#chunks = [];
    return chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks, this.#bytes);
  }

  #trim(): void {
    const kept: Uint8Array[] = [];
    let bytes = 0;
    for (let i = this.#chunks.length - 1; i >= 0 && bytes < this.#limit; i--) {
      const c = this.#chunks[i] as Uint8Array;
      kept.push(c);
      bytes += c.length;
    }
    this.#chunks = kept.reverse();
    this.#bytes = bytes;
  }
}

class BodyReader implements ResponseBodyReader {
  readonly kind: ResponseBodyKind;
  readonly #restorer: ModelNameRestorer | undefined;
  readonly #sse: SseUsageScanner | undefined;
  readonly #tail: Tail | undefined;
  #usage: Usage | undefined;

  constructor(kind: ResponseBodyKind, restorer: ModelNameRestorer | undefined, limit: number) {
    this.kind = kind;
    this.#restorer = restorer;
    this.#sse = kind === 'sse' ? new SseUsageScanner(limit) : undefined;
    // A gRPC message embeds its JSON verbatim (a protobuf bytes field), so the tail scan finds its usage.
    this.#tail = kind === 'json' || kind === 'grpc' ? new Tail(limit) : undefined;
  }

  get usage(): Usage | undefined {
    return this.#sse?.usage ?? this.#usage;
  }

  get rewrites(): boolean {
    return this.#restorer !== undefined;
  }

  get restored(): number {
    return this.#restorer?.restored ?? 0;
  }

  push(chunk: Uint8Array): Uint8Array | undefined {
    this.#sse?.push(chunk);
    this.#tail?.add(chunk);
    if (this.#restorer === undefined) return chunk.length === 0 ? undefined : chunk;
    return this.#restorer.push(chunk);
  }

  end(): Uint8Array | undefined {
    this.#sse?.end();
    if (this.#tail !== undefined) {
      const tail = this.#tail.bytes();
      // OpenAI-style `usage` first; SGLang's native generate reports it in `meta_info` instead.
      this.#usage = extractUsage(tail) ?? extractMetaInfoUsage(tail);
    }
    return this.#restorer?.end();
  }
}

/**
 * Creates the reader for one response: SSE streams are read event by event for usage, JSON bodies
 * by their tail, and the model name is restored in both as the bytes pass; opaque bodies pass
 * through untouched.
 * @example
 * ```ts
 * const reader = createResponseBodyReader({ contentType: res.headers['content-type'], restoreModel: { from: 'llama-70b', to: 'chat' } });
 * for await (const chunk of upstream) { const out = reader.push(chunk); if (out) client.write(out); }
 * const tail = reader.end(); client.end(tail);
 * decision.onUsage?.(reader.usage);
 * ```
 * @category Response
 * @public
 */
export function createResponseBodyReader(options: ResponseBodyReaderOptions): ResponseBodyReader {
  const kind = responseBodyKind(options.contentType, options.requestedStream === true);
  const r = options.restoreModel;
  // Never inside protobuf: a rename changes the length its framing records.
  const restorer = (kind === 'sse' || kind === 'json') && r !== undefined && r.from !== r.to ? new ModelNameRestorer(r.from, r.to, kind === 'sse') : undefined;
  return new BodyReader(kind, restorer, options.scanLimitBytes ?? 65_536);
}
