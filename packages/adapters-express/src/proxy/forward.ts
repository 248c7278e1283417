import type { ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import type { Clock, Endpoint } from '@switchyard/core';
import { ProxyAttempt, type AttemptResult } from './attempt.js';
import { AbortedAttempt } from './attempt-results.js';
import { isRetryable, type UpstreamFailureKind } from './upstream-errors.js';

/**
 * One request to forward: where, what, and the hooks the gateway uses for accounting.
 * @public
 */
export interface ForwardOptions {
  /** undici dispatcher (an `Agent` keeps one keep-alive pool per endpoint origin). */
  readonly dispatcher: Dispatcher;
  /** Client response. */
  readonly res: ServerResponse;
  /** HTTP method. */
  readonly method: Dispatcher.HttpMethod;
  /** Path and query as received. */
  readonly path: string;
  /** Upstream request headers (see `buildUpstreamHeaders`). */
  readonly headers: Readonly<Record<string, string>>;
  /** Body to send. */
  readonly body: Uint8Array;
  /** Primary first, then fallbacks. */
  readonly targets: readonly Endpoint[];
  /** Most attempts in total (primary included). */
  readonly maxAttempts: number;
  /** Request id echoed to the client. */
  readonly requestId: string;
  /** Restore the client's model name in the response body. */
  readonly rewriteModel: { readonly from: string; readonly to: string } | undefined;
  /** Headers added to the client's response. */
  readonly responseHeaders: Readonly<Record<string, string>>;
  /** Aborting ends the forward as `aborted` (the client connection closed). */
  readonly signal?: AbortSignal;
  /** Per-request abort handle (eviction, forced shutdown), filled in by this function. */
  readonly control?: ForwardControl;
  /** Time allowed for the upstream response head. */
  readonly headersTimeoutMs: number;
  /** Time allowed between upstream body chunks. */
  readonly bodyTimeoutMs: number;
  /** The upstream response head arrived from `endpoint`; hooks may add to `responseHeaders`. */
  readonly onResponseStart: (endpoint: Endpoint, status: number, responseHeaders: Record<string, string>) => void;
  /** One upstream body chunk of `bytes` bytes arrived. */
  readonly onResponseChunk?: ((bytes: number) => void) | undefined;
  /** Time spent relaying the response, ms (see `AttemptContext.onResponseProcessing`); needs `clock`. */
  readonly onResponseProcessing?: ((ms: number) => void) | undefined;
  /** Clock of `onResponseProcessing`'s times. */
  readonly clock?: Clock | undefined;
  /** One attempt failed (before or after the head); used by the circuit breaker and metrics. */
  readonly onAttemptFailed?: (endpoint: Endpoint, failure: UpstreamFailureKind) => void;
}

/**
 * Lets the caller abort one forward: {@link forwardRequest} sets `abort`; calling it records the
 * reason and aborts the attempt in progress (or the next one before it starts).
 * @public
 */
export interface ForwardControl {
  /** Aborts this forward; set by `forwardRequest`. */
  abort: ((reason: Error) => void) | undefined;
  /** Why it was aborted through `abort`, if it was. */
  reason: Error | undefined;
}

/**
 * Result of {@link forwardRequest}: the last attempt's result; its `attempts` is how many attempts
 * were made.
 * @public
 */
export type ForwardResult = AttemptResult;

/**
 * Forwards a request to its targets in order, retrying the next target only when an attempt failed
 * to connect or was reset before any byte reached the client, and at most `maxAttempts` times.
 * Rejects only when `targets` is empty.
 * @public
 */
export function forwardRequest(o: ForwardOptions): Promise<ForwardResult> {
  return new Promise((resolve) => {
    startForward(o, resolve);
  });
}

/**
 * {@link forwardRequest} without the promise: `done` is called exactly once with the result
 * (synchronously when nothing could be attempted). The gateway's per-request path uses this form,
 * so a request costs no promise and no per-attempt closure.
 * @throws Error when `targets` is empty
 * @public
 */
export function startForward(o: ForwardOptions, done: (result: ForwardResult) => void): void {
  if (Math.min(o.maxAttempts, o.targets.length) < 1) throw new Error('forwardRequest needs at least one target');
  new Forward(o, done).start();
}

/** The attempt loop of one forwarded request. */
class Forward {
  readonly #o: ForwardOptions;
  readonly #done: (result: ForwardResult) => void;
  readonly #limit: number;
  #index = 0;
  #attempts = 0;
  #current: ProxyAttempt | undefined;
  #aborted: Error | undefined;

  constructor(o: ForwardOptions, done: (result: ForwardResult) => void) {
    this.#o = o;
    this.#done = done;
    this.#limit = Math.min(o.maxAttempts, o.targets.length);
  }

  start(): void {
    const control = this.#o.control;
    if (control !== undefined) {
      control.abort = (reason) => {
        control.reason ??= reason;
        this.#abort(reason);
      };
    }
    this.#o.signal?.addEventListener('abort', this.#onSignal, { once: true });
    this.#next();
  }

  readonly #onSignal = (): void => {
    const reason: unknown = this.#o.signal?.reason;
    this.#abort(reason instanceof Error ? reason : new Error('aborted'));
  };

  #abort(reason: Error): void {
    this.#aborted ??= reason;
    this.#current?.abort(reason);
  }

  #next(): void {
    const o = this.#o;
    const endpoint = o.targets[this.#index] as Endpoint;
    if (o.signal?.aborted === true || this.#aborted !== undefined) {
      this.#finish(new AbortedAttempt(endpoint, false, this.#attempts));
      return;
    }
    this.#attempts++;
    // The options double as the attempt context (same fields), saving an object per request.
    const attempt = new ProxyAttempt(o, endpoint, this.#onAttemptDone, this.#attempts);
    this.#current = attempt;
    o.dispatcher.dispatch(new DispatchRequest(o, endpoint), attempt);
  }

  readonly #onAttemptDone = (last: AttemptResult): void => {
    this.#current = undefined;
    if (last.kind === 'failed' || last.kind === 'broken') this.#o.onAttemptFailed?.(last.endpoint, last.failure);
    if (last.kind === 'failed' && isRetryable(last.failure) && ++this.#index < this.#limit) {
      this.#next();
      return;
    }
    this.#finish(last);
  };

  #finish(last: AttemptResult): void {
    const o = this.#o;
    o.signal?.removeEventListener('abort', this.#onSignal);
    if (o.control !== undefined) o.control.abort = undefined;
    this.#done(last);
  }
}

/**
 * undici's options for one attempt. A class, not a literal: undici keeps it for the whole
 * exchange (its interceptors hold the options), so a pretenured literal would keep the request's
 * headers and body alive past the response (see `attempt-results.ts`).
 */
class DispatchRequest implements Dispatcher.DispatchOptions {
  readonly origin: string;
  readonly path: string;
  readonly method: Dispatcher.HttpMethod;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
  readonly headersTimeout: number;
  readonly bodyTimeout: number;

  constructor(o: ForwardOptions, endpoint: Endpoint) {
    this.origin = originOf(endpoint);
    this.path = o.path;
    this.method = o.method;
    this.headers = o.headers;
    this.body = o.body;
    this.headersTimeout = o.headersTimeoutMs;
    this.bodyTimeout = o.bodyTimeoutMs;
  }
}

const origins = new WeakMap<Endpoint, string>();

/**
 * `http://<address>`, built once per endpoint: undici looks its connection pool up by origin,
 * and a string built per request has to be flattened and hashed again every time.
 */
function originOf(endpoint: Endpoint): string {
  let origin = origins.get(endpoint);
  if (origin === undefined) {
    origin = `http://${endpoint.address}`;
    origins.set(endpoint, origin);
  }
  return origin;
}
