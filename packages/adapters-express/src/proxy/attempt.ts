import type { ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import { HeaderRecord, SwitchyardError, createResponseBodyReader, errorToResponse, type Clock, type Endpoint, type ResponseBodyReader, type Usage } from '@switchyard/core';
import { AbortedAttempt, BrokenAttempt, FailedAttempt, OkAttempt } from './attempt-results.js';
import { buildClientResponseHead } from './headers.js';
import { classifyUpstreamError, type UpstreamFailureKind } from './upstream-errors.js';

/** Largest body (by upstream `content-length`) held back to go out with the end of the response. */
const HOLD_LIMIT_BYTES = 64 * 1024;

/**
 * How one upstream attempt ended, and which attempt of its request it was (1 for the first).
 * - `ok`: the whole response was relayed.
 * - `failed`: it failed before any byte reached the client (retry or answer with an error).
 * - `broken`: it failed after the response started; the client response was terminated.
 * - `aborted`: we aborted it (the client left, shutdown, eviction).
 * @public
 */
export type AttemptResult =
  | { readonly kind: 'ok'; readonly endpoint: Endpoint; readonly status: number; readonly usage: Usage | undefined; readonly attempts: number }
  | { readonly kind: 'failed'; readonly endpoint: Endpoint; readonly failure: UpstreamFailureKind; readonly error: unknown; readonly attempts: number }
  | { readonly kind: 'broken'; readonly endpoint: Endpoint; readonly status: number; readonly failure: UpstreamFailureKind; readonly error: unknown; readonly attempts: number }
  | { readonly kind: 'aborted'; readonly endpoint: Endpoint; readonly headersSent: boolean; readonly attempts: number };

/**
 * Everything one attempt needs; shared by the attempts of a request.
 * @public
 */
export interface AttemptContext {
  /** Client response to write to. */
  readonly res: ServerResponse;
  /** Request id echoed to the client. */
  readonly requestId: string;
  /** Restore the client's model name in the response body. */
  readonly rewriteModel: { readonly from: string; readonly to: string } | undefined;
  /** Headers added to the client's response (the decision's `responseHeaders`). */
  readonly responseHeaders: Readonly<Record<string, string>>;
  /**
   * Called when the upstream response head arrives, before it is written; response hooks may add
   * entries to `responseHeaders` (a copy of the decision's), which the client's head then carries.
   */
  readonly onResponseStart: (endpoint: Endpoint, status: number, responseHeaders: Record<string, string>) => void;
  /** Called with the size of each upstream body chunk as it arrives (TTFT, ITL, response size). */
  readonly onResponseChunk?: ((bytes: number) => void) | undefined;
  /**
   * Time spent relaying the response, ms, as llm-d measures it: each body chunk's handling when
   * the response is SSE, response head to the end of the body otherwise. Needs `clock`.
   */
  readonly onResponseProcessing?: ((ms: number) => void) | undefined;
  /** Clock of `onResponseProcessing`'s times. */
  readonly clock?: Clock | undefined;
}

/**
 * undici dispatch handler for one attempt against one endpoint: relays the response head and body
 * to the client with backpressure (a slow client pauses the upstream socket), watching the body
 * for usage and restoring the model name.
 * @public
 */
export class ProxyAttempt implements Dispatcher.DispatchHandlers {
  readonly #ctx: AttemptContext;
  readonly #endpoint: Endpoint;
  readonly #done: (r: AttemptResult) => void;
  readonly #attempt: number;
  #abortUpstream: ((err?: Error) => void) | undefined;
  #aborted = false;
  #finished = false;
  #status = 0;
  #processor: ResponseBodyReader | undefined;
  #resume: (() => void) | undefined;
  #waitingDrain = false;
  #contentType = '';
  #abortReason: Error | undefined;
  /** Small bodies of known length are sent with the end of the response, in one write. */
  #held: Uint8Array[] | undefined;
  /** Set when response processing is timed: the clock, and whether chunks are timed one by one (SSE). */
  #timing: Clock | undefined;
  #timePerChunk = false;
  #headAt = 0;

  /** @param attempt - which attempt of its request this is (1 for the first), reported in the result */
  constructor(ctx: AttemptContext, endpoint: Endpoint, done: (r: AttemptResult) => void, attempt = 1) {
    this.#ctx = ctx;
    this.#endpoint = endpoint;
    this.#done = done;
    this.#attempt = attempt;
  }

  /** Aborts the upstream request (idempotent); the attempt then ends as `aborted`. */
  abort(reason: Error): void {
    if (this.#finished || this.#aborted) return;
    this.#aborted = true;
    this.#abortReason = reason;
    if (this.#abortUpstream !== undefined) this.#abortUpstream(reason);
  }

  /** True once the response head was written to the client. */
  get headersSent(): boolean {
    return this.#processor !== undefined;
  }

  onConnect(abort: (err?: Error) => void): void {
    this.#abortUpstream = abort;
    if (this.#aborted) abort(new Error('aborted before dispatch'));
  }

  onHeaders(status: number, raw: Buffer[], resume: () => void): boolean {
    if (status < 200) return true; // 1xx informational heads are not relayed
    const ctx = this.#ctx;
    this.#status = status;
    this.#resume = resume;
    const served = this.#endpoint.address;
    // Response hooks run first, so that the headers they add reach the client's head.
    const extra: Record<string, string> = Object.assign(new HeaderRecord(), ctx.responseHeaders);
    ctx.onResponseStart(this.#endpoint, status, extra);
    // One pass over the raw headers; only a body that gets rewritten (model rename) needs a second
    // one, to drop the upstream content-length.
    let head = buildClientResponseHead(raw, served, ctx.requestId, false, extra);
    this.#contentType = head.contentType ?? '';
    const processor = createResponseBodyReader({ contentType: this.#contentType, restoreModel: ctx.rewriteModel });
    this.#processor = processor;
    if (processor.rewrites) head = buildClientResponseHead(raw, served, ctx.requestId, true, extra);
    if (ctx.onResponseProcessing !== undefined && ctx.clock !== undefined) {
      this.#timing = ctx.clock;
      this.#timePerChunk = processor.kind === 'sse';
      this.#headAt = ctx.clock.now();
    }
    ctx.res.writeHead(status, head.headers);
    const length = head.contentLength;
    if (length !== undefined && length <= HOLD_LIMIT_BYTES && !this.#contentType.startsWith('text/event-stream')) this.#held = [];
    return true;
  }

  onData(chunk: Buffer): boolean {
    const clock = this.#timing;
    if (clock === undefined || !this.#timePerChunk) return this.#relay(chunk);
    const started = clock.now();
    try {
      return this.#relay(chunk);
    } finally {
      this.#ctx.onResponseProcessing?.(clock.now() - started);
    }
  }

  #relay(chunk: Buffer): boolean {
    if (chunk.length > 0) this.#ctx.onResponseChunk?.(chunk.length);
    const out = this.#processor?.push(chunk);
    if (out === undefined || out.length === 0) return true;
    if (this.#held !== undefined) {
      this.#held.push(out);
      return true;
    }
    const res = this.#ctx.res;
    if (res.destroyed) return true;
    if (res.write(out)) return true;
    if (!this.#waitingDrain) {
      this.#waitingDrain = true;
      res.once('drain', this.#onDrain);
    }
    return false;
  }

  onComplete(): void {
    const clock = this.#timing;
    // A streamed response's last piece of handling is this one (the reader's tail and the end).
    const since = clock === undefined ? 0 : this.#timePerChunk ? clock.now() : this.#headAt;
    const processor = this.#processor;
    const tail = processor?.end();
    const res = this.#ctx.res;
    const held = this.#held;
    if (held !== undefined && tail !== undefined && tail.length > 0) held.push(tail);
    const last = held === undefined ? tail : held.length <= 1 ? held[0] : Buffer.concat(held);
    if (last !== undefined && last.length > 0) res.end(last);
    else res.end();
    if (clock !== undefined) this.#ctx.onResponseProcessing?.(clock.now() - since);
    this.#finish(new OkAttempt(this.#endpoint, this.#status, processor?.usage, this.#attempt));
  }

  onError(error: Error): void {
    const endpoint = this.#endpoint;
    if (this.#aborted) {
      if (this.headersSent) this.#terminate(this.#abortReason ?? error);
      this.#finish(new AbortedAttempt(endpoint, this.headersSent, this.#attempt));
      return;
    }
    const failure = classifyUpstreamError(error);
    if (!this.headersSent) {
      this.#finish(new FailedAttempt(endpoint, failure, error, this.#attempt));
      return;
    }
    const code = failure === 'body-timeout' ? 'UPSTREAM_TIMEOUT' : 'UPSTREAM_UNAVAILABLE';
    this.#terminate(new SwitchyardError(code, `upstream ${endpoint.address} failed mid-response (${failure})`, { cause: error }));
    this.#finish(new BrokenAttempt(endpoint, this.#status, failure, error, this.#attempt));
  }

  readonly #onDrain = (): void => {
    this.#waitingDrain = false;
    this.#resume?.();
  };

  /**
   * Ends a response that already started. SSE clients get a final `data: {"error":...}` event
   * (the official SDKs raise it as an APIError); other responses are cut, so the client cannot
   * take a truncated body for a complete one.
   */
  #terminate(error: unknown): void {
    const res = this.#ctx.res;
    if (res.destroyed || res.writableEnded) return;
    if (this.#contentType.startsWith('text/event-stream')) {
      res.end(`\n\ndata: ${JSON.stringify(errorToResponse(error).body)}\n\n`);
      return;
    }
    res.destroy();
  }

  #finish(result: AttemptResult): void {
    if (this.#finished) return;
    this.#finished = true;
    if (this.#waitingDrain) this.#ctx.res.off('drain', this.#onDrain);
    this.#done(result);
  }
}
