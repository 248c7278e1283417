import { createResponseBodyReader, systemClock, type Clock, type ResponseBodyReader, type ResponseMetadata, type Usage } from '@switchyard/core';
import { setHeader } from '../wire/headers.js';
import type { ProcessingResponse } from '../wire/messages.js';
import { numberMetadataStruct } from '../wire/struct.js';
import { bodyChunkResponses, headersResponse, trailersResponse } from '../wire/responses.js';

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
  /** Largest chunk sent back. */
  readonly chunkBytes: number;
  /** Headers to add to the response (the decision's `responseHeaders`, e.g. a session token). */
  readonly setHeaders: Readonly<Record<string, string>>;
  /** Sends a reply to the proxy. */
  readonly send: (message: ProcessingResponse) => void;
  /** Usage became known (reported once, at the end). */
  readonly onUsage: (usage: Usage) => void;
  /**
   * The body ended, its last reply not sent yet: returns dynamic metadata to send with that reply
   * (llm-d's ResponseBody plugins, e.g. request-attribute-reporter), or undefined.
   */
  readonly onBodyEnd?: ((usage: Usage | undefined) => ResponseMetadata | undefined) | undefined;
  /** One response body chunk of `bytes` bytes arrived from the model server (TTFT, ITL, size). */
  readonly onChunk?: ((bytes: number) => void) | undefined;
  /**
   * Time spent on the response, ms, as llm-d measures it: each body chunk's handling when the
   * response is SSE, response headers to the end of the body otherwise.
   */
  readonly onProcessing?: ((ms: number) => void) | undefined;
  /** Clock of `onProcessing`'s times. Default `systemClock`. */
  readonly clock?: Clock | undefined;
}

const EMPTY = new Uint8Array(0);

/**
 * HTTP status of a response from its ext_proc headers (`:status`), 200 when absent or not a number.
 * @internal
 */
export function responseStatus(headers: Readonly<Record<string, string>>): number {
  const status = Number(headers[':status'] ?? headers.status ?? 200);
  return Number.isInteger(status) ? status : 200;
}

/**
 * The response half of a stream: answers the headers at once, then hands every body chunk to
 * core's response reader (usage, streaming model-name restore) and sends back what it returns.
 * Nothing is buffered, so a body of any size costs the same memory.
 * @public
 */
export class ResponsePhase {
  readonly #o: ResponsePhaseOptions;
  readonly #status: number;
  readonly #reader: ResponseBodyReader;
  /** Set when `onProcessing` is: the clock, and when the headers arrived. */
  readonly #clock: Clock | undefined;
  readonly #headersAt: number;
  #done = false;

  /**
   * Handles the response headers and sends their reply.
   * @param headers - lower-case response headers
   */
  constructor(headers: Readonly<Record<string, string>>, options: ResponsePhaseOptions) {
    this.#o = options;
    this.#clock = options.onProcessing === undefined ? undefined : (options.clock ?? systemClock);
    this.#headersAt = this.#clock?.now() ?? 0;
    this.#status = responseStatus(headers);
    const r = options.restore;
    this.#reader = createResponseBodyReader({
      contentType: headers['content-type'],
      requestedStream: options.requestedStream,
      restoreModel: r === undefined ? undefined : { from: r.target, to: r.client },
    });
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
    const clock = this.#clock;
    if (clock === undefined || this.#reader.kind !== 'sse') return this.#body(chunk, endOfStream);
    const started = clock.now();
    try {
      return this.#body(chunk, endOfStream);
    } finally {
      this.#o.onProcessing?.(clock.now() - started);
    }
  }

  #body(chunk: Uint8Array, endOfStream: boolean): ResponseEnd | undefined {
    if (chunk.length > 0) this.#o.onChunk?.(chunk.length);
    const out = this.#reader.push(chunk);
    if (!endOfStream) {
      if (out !== undefined) this.#sendBody(out, false);
      return undefined;
    }
    const tail = this.#reader.end();
    this.#sendBody(out === undefined ? (tail ?? EMPTY) : tail === undefined ? out : Buffer.concat([out, tail]), true, this.#bodyEndMetadata());
    return this.#end();
  }

  /** Asks the decision for metadata to attach to the last reply (reader ended, so usage is final). */
  #bodyEndMetadata(): ProcessingResponse['dynamic_metadata'] {
    const metadata = this.#o.onBodyEnd?.(this.#reader.usage);
    return metadata === undefined ? undefined : numberMetadataStruct(metadata);
  }

  /** Handles response trailers: flushes held bytes (without eos), then answers the trailers. */
  trailers(): ResponseEnd | undefined {
    if (this.#done) {
      this.#o.send(trailersResponse('response'));
      return undefined;
    }
    const tail = this.#reader.end();
    if (tail !== undefined) this.#sendBody(tail, false);
    // With trailers the trailers reply is the last one, so the metadata rides on it.
    const metadata = this.#bodyEndMetadata();
    this.#o.send(metadata === undefined ? trailersResponse('response') : { ...trailersResponse('response'), dynamic_metadata: metadata });
    return this.#end();
  }

  #sendBody(bytes: Uint8Array, endOfStream: boolean, lastMetadata?: ProcessingResponse['dynamic_metadata']): void {
    const replies = bodyChunkResponses('response', bytes, endOfStream, this.#o.chunkBytes);
    const last = replies.length - 1;
    for (let i = 0; i < replies.length; i++) {
      const reply = replies[i] as ProcessingResponse;
      this.#o.send(i === last && lastMetadata !== undefined ? { ...reply, dynamic_metadata: lastMetadata } : reply);
    }
  }

  #end(): ResponseEnd {
    this.#done = true;
    const clock = this.#clock;
    if (clock !== undefined && this.#reader.kind !== 'sse') this.#o.onProcessing?.(clock.now() - this.#headersAt);
    const usage = this.#reader.usage;
    if (usage !== undefined) this.#o.onUsage(usage);
    return { status: this.#status, usage };
  }
}
