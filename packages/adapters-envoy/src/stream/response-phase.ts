import type { Usage } from '@switchyard/core';
import { setHeader } from '../wire/headers.js';
import type { ProcessingResponse } from '../wire/messages.js';
import { bodyChunkResponses, headersResponse, trailersResponse } from '../wire/responses.js';
import { ModelNameRestorer } from './model-restore.js';
import { SseUsageScanner, readUsage } from './usage.js';

/** How a response body is handled. */
type BodyMode = 'sse' | 'json' | 'echo';

/**
 * How a response ended, handed to the stream to close the decision's lifecycle.
 * @public
 */
export interface ResponseEnd {
  /** HTTP status from the response headers. */
  readonly status: number;
  /** Usage read from the body, when the model server reported it. */
  readonly usage: Usage | undefined;
}

/**
 * Settings of one response.
 * @public
 */
export interface ResponsePhaseOptions {
  /** Model name restoration after a rewrite (target → client), or undefined when none happened. */
  readonly restore: { readonly target: string; readonly client: string } | undefined;
  /** The request asked for a stream (used when the response has no content type). */
  readonly requestedStream: boolean;
  /** Largest JSON body buffered; beyond it the body is passed through and usage is not read. */
  readonly maxBufferBytes: number;
  /** Largest chunk sent back. */
  readonly chunkBytes: number;
  /** Headers to add to the response (the decision's `responseHeaders`, e.g. a session token). */
  readonly setHeaders: Readonly<Record<string, string>>;
  /** Sends a reply to the proxy. */
  readonly send: (message: ProcessingResponse) => void;
  /** Usage became known (SSE usage is reported once, at the end). */
  readonly onUsage: (usage: Usage) => void;
}

/**
 * The response half of a stream: answers the headers at once, echoes SSE chunk for chunk while
 * reading usage from `data:` lines, buffers JSON bodies to the end to read usage and restore the
 * client's model name, and passes anything else through.
 * @public
 */
export class ResponsePhase {
  readonly #o: ResponsePhaseOptions;
  readonly #status: number;
  readonly #mode: BodyMode;
  readonly #restorer: ModelNameRestorer | undefined;
  readonly #scanner: SseUsageScanner | undefined;
  #buffered: Buffer[] = [];
  #bufferedBytes = 0;
  #overflowed = false;
  #done = false;

  /**
   * Handles the response headers and sends their reply.
   * @param headers - lower-case response headers
   */
  constructor(headers: Readonly<Record<string, string>>, options: ResponsePhaseOptions) {
    this.#o = options;
    const status = Number(headers[':status'] ?? headers.status ?? 200);
    this.#status = Number.isInteger(status) ? status : 200;
    const type = (headers['content-type'] ?? '').toLowerCase();
    if (type.includes('text/event-stream')) this.#mode = 'sse';
    else if (type.includes('json')) this.#mode = 'json';
    else if (type === '') this.#mode = options.requestedStream ? 'sse' : 'json';
    else this.#mode = 'echo';
    this.#restorer = options.restore === undefined ? undefined : new ModelNameRestorer(options.restore.target, options.restore.client);
    this.#scanner = this.#mode === 'sse' ? new SseUsageScanner() : undefined;
    const set = Object.entries(options.setHeaders);
    options.send(headersResponse('response', set.length === 0 ? {} : { mutation: { set_headers: set.map(([k, v]) => setHeader(k, v)) } }));
  }

  /** HTTP status of the response. */
  get status(): number {
    return this.#status;
  }

  /** True once the body (or trailers) ended. */
  get done(): boolean {
    return this.#done;
  }

  /** Ends a response without a body (headers carried end_of_stream). */
  endWithoutBody(): ResponseEnd {
    this.#done = true;
    return { status: this.#status, usage: undefined };
  }

  /** Handles one body chunk; returns how the response ended when this was the last one. */
  body(chunk: Uint8Array, endOfStream: boolean): ResponseEnd | undefined {
    if (this.#done) return undefined;
    if (this.#mode === 'json' && !this.#overflowed) {
      this.#buffer(chunk);
      if (this.#bufferedBytes > this.#o.maxBufferBytes) {
        // Too large to hold: send what we have and pass the rest through; usage stays unknown.
        this.#flush(endOfStream, true);
        this.#overflowed = true;
        return endOfStream ? this.#end(undefined) : undefined;
      }
      return endOfStream ? this.#end(this.#finishJsonBody(true)) : undefined;
    }
    this.#scanner?.push(chunk);
    const out = this.#restorer === undefined ? chunk : this.#restorer.apply(chunk);
    for (const reply of bodyChunkResponses('response', out, endOfStream, this.#o.chunkBytes)) this.#o.send(reply);
    return endOfStream ? this.#end(this.#sseUsage()) : undefined;
  }

  /** Handles response trailers: flushes a buffered body (without eos), then answers the trailers. */
  trailers(): ResponseEnd | undefined {
    if (this.#done) {
      this.#o.send(trailersResponse('response'));
      return undefined;
    }
    let usage: Usage | undefined;
    if (this.#mode === 'json' && !this.#overflowed) usage = this.#finishJsonBody(false);
    else usage = this.#sseUsage();
    this.#o.send(trailersResponse('response'));
    return this.#end(usage);
  }

  #buffer(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.#buffered.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    this.#bufferedBytes += chunk.length;
  }

  #flush(endOfStream: boolean, restore: boolean): Buffer {
    let body = this.#buffered.length === 1 && this.#buffered[0] !== undefined ? this.#buffered[0] : Buffer.concat(this.#buffered, this.#bufferedBytes);
    this.#buffered = [];
    this.#bufferedBytes = 0;
    if (restore && this.#restorer !== undefined) body = Buffer.from(this.#restorer.apply(body));
    for (const reply of bodyChunkResponses('response', body, endOfStream, this.#o.chunkBytes)) this.#o.send(reply);
    return body;
  }

  #finishJsonBody(endOfStream: boolean): Usage | undefined {
    const body = this.#buffered.length === 1 && this.#buffered[0] !== undefined ? this.#buffered[0] : Buffer.concat(this.#buffered, this.#bufferedBytes);
    let usage: Usage | undefined;
    try {
      usage = readUsage(JSON.parse(body.toString('utf8')));
    } catch {
      // Not JSON after all: pass it through untouched.
    }
    this.#buffered = [body];
    this.#bufferedBytes = body.length;
    this.#flush(endOfStream, true);
    return usage;
  }

  #sseUsage(): Usage | undefined {
    if (this.#scanner === undefined) return undefined;
    this.#scanner.end();
    return this.#scanner.usage;
  }

  #end(usage: Usage | undefined): ResponseEnd {
    this.#done = true;
    if (usage !== undefined) this.#o.onUsage(usage);
    return { status: this.#status, usage };
  }
}
