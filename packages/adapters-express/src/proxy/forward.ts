import type { ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import type { Endpoint } from '@switchyard/core';
import { ProxyAttempt, type AttemptResult } from './attempt.js';
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
  readonly signal: AbortSignal;
  /** Per-request abort handle (eviction, forced shutdown), filled in by this function. */
  readonly control?: ForwardControl;
  /** Time allowed for the upstream response head. */
  readonly headersTimeoutMs: number;
  /** Time allowed between upstream body chunks. */
  readonly bodyTimeoutMs: number;
  /** The upstream response head arrived from `endpoint`. */
  readonly onResponseStart: (endpoint: Endpoint, status: number) => void;
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
 * Result of {@link forwardRequest}: the last attempt's result and how many attempts were made.
 * @public
 */
export type ForwardResult = AttemptResult & { readonly attempts: number };

/**
 * Forwards a request to its targets in order, retrying the next target only when an attempt failed
 * to connect or was reset before any byte reached the client, and at most `maxAttempts` times.
 * Rejects only when `targets` is empty.
 * @public
 */
export async function forwardRequest(o: ForwardOptions): Promise<ForwardResult> {
  const ctx = { res: o.res, requestId: o.requestId, rewriteModel: o.rewriteModel, responseHeaders: o.responseHeaders, onResponseStart: o.onResponseStart };
  let current: ProxyAttempt | undefined;
  let aborted: Error | undefined;
  const abort = (reason: Error): void => {
    aborted ??= reason;
    current?.abort(reason);
  };
  const onAbort = (): void => {
    abort(o.signal.reason instanceof Error ? o.signal.reason : new Error('aborted'));
  };
  if (o.control !== undefined) {
    const control = o.control;
    control.abort = (reason) => {
      control.reason ??= reason;
      abort(reason);
    };
  }
  o.signal.addEventListener('abort', onAbort, { once: true });
  try {
    let attempts = 0;
    let last: AttemptResult | undefined;
    const limit = Math.min(o.maxAttempts, o.targets.length);
    for (let i = 0; i < limit; i++) {
      const endpoint = o.targets[i] as Endpoint;
      if (o.signal.aborted || aborted !== undefined) return { kind: 'aborted', endpoint, headersSent: false, attempts };
      attempts++;
      last = await new Promise<AttemptResult>((resolve) => {
        const attempt = new ProxyAttempt(ctx, endpoint, resolve);
        current = attempt;
        o.dispatcher.dispatch(
          {
            origin: `http://${endpoint.address}`,
            path: o.path,
            method: o.method,
            headers: o.headers,
            body: o.body,
            headersTimeout: o.headersTimeoutMs,
            bodyTimeout: o.bodyTimeoutMs,
          },
          attempt,
        );
      });
      current = undefined;
      if (last.kind === 'failed' || last.kind === 'broken') o.onAttemptFailed?.(endpoint, last.failure);
      if (last.kind !== 'failed' || !isRetryable(last.failure)) break;
    }
    // `limit` is at least 1 whenever the gateway calls this (a decision always has a primary).
    if (last === undefined) throw new Error('forwardRequest needs at least one target');
    return { ...last, attempts };
  } finally {
    o.signal.removeEventListener('abort', onAbort);
    if (o.control !== undefined) o.control.abort = undefined;
  }
}
