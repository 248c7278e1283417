import { Agent, type Dispatcher } from 'undici';
import type { MetricsFetcher, MetricsTlsOptions } from '@switchyard/core';

const ACCEPT = ['accept', 'text/plain;version=0.0.4;q=1,*/*;q=0.1'];
const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;
/** Parsed scrape URLs remembered (one per endpoint; a churning fleet only recycles the cache). */
const URL_CACHE_SIZE = 4096;

/**
 * Options of {@link createUndiciMetricsFetcher}.
 * @public
 * @category Config
 */
export interface UndiciMetricsFetcherOptions {
  /** Largest accepted body. @defaultValue 16 MiB */
  readonly maxBytes?: number;
  /** Idle keep-alive time of a scrape connection. @defaultValue 60 s */
  readonly keepAliveTimeoutMs?: number;
  /** TLS settings for `https` endpoints (see `readMetricsTls` in `@switchyard/core`). */
  readonly tls?: MetricsTlsOptions;
}

/**
 * A `MetricsFetcher` that can be closed.
 * @public
 * @category Config
 */
export interface ClosableMetricsFetcher extends MetricsFetcher {
  /** Closes the keep-alive connections. */
  close(): Promise<void>;
}

/**
 * The gateway's `/metrics` fetcher: undici's raw dispatch over one keep-alive connection per
 * endpoint. Polls run every 50 ms per endpoint, too rarely for the JIT to optimise a separate
 * HTTP client (core's `node:http` fetcher); these share the forwarding path's undici code, which
 * the request traffic keeps hot, and cost a fraction of the CPU per poll under load.
 * @public
 * @category Config
 */
export function createUndiciMetricsFetcher(options: UndiciMetricsFetcherOptions = {}): ClosableMetricsFetcher {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const agent = new Agent({ connections: 1, keepAliveTimeout: options.keepAliveTimeoutMs ?? 60_000, ...(options.tls === undefined ? {} : { connect: { ...options.tls } }) });
  const targets = new Map<string, { readonly origin: string; readonly path: string }>();
  const targetOf = (url: string): { readonly origin: string; readonly path: string } => {
    let target = targets.get(url);
    if (target === undefined) {
      const u = new URL(url);
      target = { origin: u.origin, path: u.pathname + u.search };
      if (targets.size >= URL_CACHE_SIZE) targets.clear();
      targets.set(url, target);
    }
    return target;
  };
  const fetcher = (url: string, signal: AbortSignal): Promise<string> =>
    new Promise<string>((resolve, reject) => {
      if (signal.aborted) {
        reject(abortError(signal));
        return;
      }
      const { origin, path } = targetOf(url);
      agent.dispatch({ origin, path, method: 'GET', headers: ACCEPT }, new ScrapeHandler(resolve, reject, maxBytes, signal));
    });
  return Object.assign(fetcher, { close: () => agent.close() });
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('scrape aborted');
}

/** Collects one 200 response's body as text; anything else rejects. */
class ScrapeHandler implements Dispatcher.DispatchHandlers {
  readonly #resolve: (text: string) => void;
  readonly #reject: (error: Error) => void;
  readonly #maxBytes: number;
  readonly #signal: AbortSignal;
  readonly #onAbort = (): void => {
    this.#abort?.(abortError(this.#signal));
  };
  #abort: ((err?: Error) => void) | undefined;
  #chunks: Buffer[] = [];
  #size = 0;
  #settled = false;
  /** Set when the answer is not a 200: the poll fails with it once the body is drained. */
  #failure: Error | undefined;

  constructor(resolve: (text: string) => void, reject: (error: Error) => void, maxBytes: number, signal: AbortSignal) {
    this.#resolve = resolve;
    this.#reject = reject;
    this.#maxBytes = maxBytes;
    this.#signal = signal;
    signal.addEventListener('abort', this.#onAbort, { once: true });
  }

  onConnect(abort: (err?: Error) => void): void {
    this.#abort = abort;
    if (this.#signal.aborted) abort(abortError(this.#signal));
  }

  onHeaders(status: number): boolean {
    // The body of an error answer is read and dropped so that the connection stays reusable.
    if (status >= 200 && status !== 200) this.#failure = new Error(`HTTP ${status}`);
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.#failure !== undefined) return true;
    this.#size += chunk.length;
    if (this.#size > this.#maxBytes) {
      this.#abort?.(new Error(`response larger than ${this.#maxBytes} bytes`));
      return false;
    }
    this.#chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    const chunks = this.#chunks;
    const failed = this.#failure;
    if (!this.#settle()) return;
    if (failed !== undefined) this.#reject(failed);
    else this.#resolve(chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8'));
  }

  onError(error: Error): void {
    if (this.#settle()) this.#reject(error);
  }

  /** Marks the handler done and detaches it; false when it already was. */
  #settle(): boolean {
    if (this.#settled) return false;
    this.#settled = true;
    this.#chunks = [];
    this.#signal.removeEventListener('abort', this.#onAbort);
    return true;
  }
}
