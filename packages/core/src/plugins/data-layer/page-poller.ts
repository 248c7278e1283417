import type { Clock, TimerHandle } from '../../clock/clock.js';
import type { EndpointPool } from '../../endpoints/pool.js';
import type { Endpoint } from '../../endpoints/types.js';
import { createHttpMetricsFetcher, type HttpMetricsFetcherOptions, type MetricsFetcher } from '../../model-metrics/http-fetcher.js';
import { parsePrometheusText } from '../../model-metrics/prometheus-text.js';
import { MIN_SCRAPE_INTERVAL_MS } from '../../model-metrics/scraper.js';
import type { MetricFamily } from '../../model-metrics/types.js';
import type { Plugin } from '../../scheduling/plugins.js';

/** Each poll of one endpoint is bounded by this (llm-d's 1 s poll bound). */
const POLL_TIMEOUT_MS = 1000;

/**
 * A data source that polls a metrics page of every endpoint and hands each page to the
 * extractors wired to it (`dcgm-data-source`, `multicluster-metrics-data-source`): polling starts
 * when the first extractor is attached and stops at `close()`.
 * @public
 * @category Built-in plugins
 */
export interface PolledPageSource extends Plugin {
  /** Page URL of an endpoint. */
  urlOf(endpoint: Endpoint): string;
  /** Wires extractors to this source (the config loader calls it for `dataLayer.sources`). */
  attachExtractors(extractors: readonly Plugin[]): void;
  /** Polls every endpoint once now and resolves when every page was handled (tests, warm-up). */
  pollOnce(): Promise<void>;
  /** Consecutive failed polls of an endpoint (0 after a success). */
  failures(endpointId: string): number;
}

/**
 * What a {@link PagePoller} polls and where the pages go.
 * @internal
 */
export interface PagePollerOptions {
  readonly pool: EndpointPool;
  readonly clock: Clock;
  readonly intervalMs: number;
  /** The page URL of an endpoint. */
  readonly urlOf: (endpoint: Endpoint) => string;
  /** Options of the default HTTP fetcher, created at the first poll. */
  readonly http: HttpMetricsFetcherOptions;
  /** A fetcher to use instead (tests). */
  readonly fetch?: MetricsFetcher | undefined;
  /** One parsed page of `endpoint`. */
  readonly onPage: (endpoint: Endpoint, families: readonly MetricFamily[]) => void;
}

/**
 * Polls a Prometheus text page of every pool endpoint on a timer, for the data sources that
 * feed their own extractors (`dcgm-data-source`, `multicluster-metrics-data-source`): one poll
 * per endpoint at a time, each bounded by 1 s, failures counted per endpoint.
 * @internal
 */
export class PagePoller {
  readonly #o: PagePollerOptions;
  readonly #failures = new Map<string, number>();
  readonly #inFlight = new Set<string>();
  readonly #abort = new AbortController();
  #fetch: (MetricsFetcher & { close?(): void }) | undefined;
  #timer: TimerHandle | undefined;
  #closed = false;

  constructor(options: PagePollerOptions) {
    this.#o = options;
    this.#fetch = options.fetch;
  }

  /** Starts the timer (idempotent; never after close). */
  start(): void {
    if (this.#timer === undefined && !this.#closed) this.#schedule();
  }

  /** Consecutive failed polls of an endpoint (0 after a success). */
  failures(endpointId: string): number {
    return this.#failures.get(endpointId) ?? 0;
  }

  /** Polls every endpoint once now; resolves when every page was handled. */
  async pollOnce(): Promise<void> {
    const pool = this.#o.pool;
    await Promise.all(pool.list().map((e) => this.#poll(e)));
    // Counters of endpoints that left the pool go, so the map stays as large as the pool.
    for (const id of this.#failures.keys()) if (pool.get(id) === undefined) this.#failures.delete(id);
  }

  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) this.#o.clock.clearTimeout(this.#timer);
    this.#abort.abort();
    this.#fetch?.close?.();
  }

  #schedule(): void {
    this.#timer = this.#o.clock.setTimeout(() => {
      void this.pollOnce().finally(() => {
        if (!this.#closed) this.#schedule();
      });
    }, this.#o.intervalMs);
  }

  async #poll(endpoint: Endpoint): Promise<void> {
    // One poll per endpoint at a time: a slow server is skipped, not piled up on.
    if (this.#closed || this.#inFlight.has(endpoint.id)) return;
    this.#inFlight.add(endpoint.id);
    this.#fetch ??= createHttpMetricsFetcher(this.#o.http);
    const clock = this.#o.clock;
    const timeout = new AbortController();
    const timer = clock.setTimeout(() => {
      timeout.abort();
    }, POLL_TIMEOUT_MS);
    try {
      const text = await this.#fetch(this.#o.urlOf(endpoint), AbortSignal.any([timeout.signal, this.#abort.signal]));
      this.#o.onPage(endpoint, parsePrometheusText(text));
      this.#failures.set(endpoint.id, 0);
    } catch {
      // An unreachable or malformed page only leaves that endpoint's values unknown.
      this.#failures.set(endpoint.id, this.failures(endpoint.id) + 1);
    } finally {
      clock.clearTimeout(timer);
      this.#inFlight.delete(endpoint.id);
    }
  }
}

/** An extractor a {@link PolledPageSource} feeds: it reads one endpoint's parsed page. */
interface PageExtractor extends Plugin {
  extract(endpoint: Endpoint, families: readonly MetricFamily[]): void;
}

/**
 * What differs between the sources built on {@link PagePoller}: their type, page URL, HTTP
 * options and which extractors they feed.
 * @internal
 */
export interface PolledPageSourceOptions extends Omit<PagePollerOptions, 'intervalMs' | 'onPage'> {
  readonly type: string;
  readonly name: string;
  /** The source's `interval` parameter in ms; unset or `''` polls at the minimum scrape interval. */
  readonly interval: number | '' | undefined;
  /** True for the extractors this source feeds (others in `dataLayer.sources` are ignored). */
  readonly feeds: (p: Plugin) => p is PageExtractor;
}

/**
 * A {@link PolledPageSource}: polling starts when the first extractor it feeds is attached.
 * @internal
 */
export class PolledPageSourceImpl implements PolledPageSource {
  readonly type: string;
  readonly name: string;
  readonly #extractors: PageExtractor[] = [];
  readonly #feeds: (p: Plugin) => p is PageExtractor;
  readonly #urlOf: (endpoint: Endpoint) => string;
  readonly #poller: PagePoller;

  constructor(o: PolledPageSourceOptions) {
    this.type = o.type;
    this.name = o.name;
    this.#feeds = o.feeds;
    this.#urlOf = o.urlOf;
    const ms = o.interval === undefined || o.interval === '' ? MIN_SCRAPE_INTERVAL_MS : o.interval;
    this.#poller = new PagePoller({
      ...o,
      intervalMs: Math.max(MIN_SCRAPE_INTERVAL_MS, ms),
      onPage: (endpoint, families) => {
        for (const e of this.#extractors) e.extract(endpoint, families);
      },
    });
  }

  urlOf(endpoint: Endpoint): string {
    return this.#urlOf(endpoint);
  }

  attachExtractors(extractors: readonly Plugin[]): void {
    for (const e of extractors) if (this.#feeds(e) && !this.#extractors.includes(e)) this.#extractors.push(e);
    if (this.#extractors.length > 0) this.#poller.start();
  }

  failures(endpointId: string): number {
    return this.#poller.failures(endpointId);
  }

  pollOnce(): Promise<void> {
    return this.#poller.pollOnce();
  }

  close(): void {
    this.#poller.close();
  }
}
