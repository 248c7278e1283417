import { EventEmitter } from 'eventemitter3';
import { systemClock, type Clock, type TimerHandle } from '../clock/clock.js';
import { joinHostPort } from '../endpoints/address.js';
import type { EndpointPool } from '../endpoints/pool.js';
import type { Endpoint, EndpointMetrics, EngineType } from '../endpoints/types.js';
import { SwitchyardError } from '../errors/switchyard-error.js';
import { ENGINE_METRIC_MAPPINGS, mappingMetricNames, type EngineMetricMapping } from './engine-mappings.js';
import { extractEndpointMetrics, missingCoreMetrics } from './extract.js';
import { createHttpMetricsFetcher, type HttpMetricsFetcher, type MetricsFetcher, type MetricsTlsOptions } from './http-fetcher.js';
import { selectFamilySections } from './page-sections.js';
import { parsePrometheusText } from './prometheus-text.js';
import { indexSamples } from './samples.js';

/**
 * Smallest allowed poll interval (llm-d's `--refresh-metrics-interval` floor). @public
 * @category Model-server metrics
 */
export const MIN_SCRAPE_INTERVAL_MS = 50;

/**
 * Every this many polls an endpoint's page is read up to every family the mapping names; in
 * between, the cache geometry (it does not change while a server runs) and LoRA info the page did
 * not have are not waited for, so the read stops after the load gauges.
 */
const FULL_READ_EVERY = 20;

/** The filter of one engine mapping and the `until` groups of each value it reads. */
interface MappingFilter {
  readonly filter: (name: string) => boolean;
  /** Groups of every value (a full read). */
  readonly all: readonly (readonly string[])[];
  /** Waiting, running, KV usage: read on every poll. */
  readonly load: readonly (readonly string[])[];
  /** LoRA info: read on every poll while the page has it. */
  readonly lora: readonly (readonly string[])[];
  /** Cache geometry: read on full reads only. */
  readonly cache: readonly (readonly string[])[];
  /** `until` of a poll that reads load (+ LoRA) only. */
  readonly loadOnly: readonly (readonly string[])[];
  readonly loadAndLora: readonly (readonly string[])[];
}

/**
 * Options of {@link MetricsScraper}.
 * @public
 * @category Model-server metrics
 */
export interface MetricsScraperOptions {
  /** Pool whose endpoints are polled; membership changes are followed. */
  readonly pool: EndpointPool;
  /** Time source for intervals, timeouts and staleness. @defaultValue systemClock */
  readonly clock?: Clock;
  /** Poll interval per endpoint, at least 50 ms. @defaultValue 50 */
  readonly intervalMs?: number;
  /** Per-poll timeout. @defaultValue 1000 */
  readonly timeoutMs?: number;
  /** Metrics path. @defaultValue '/metrics' */
  readonly path?: string;
  /** URL scheme of the polls. @defaultValue 'http' */
  readonly scheme?: 'http' | 'https';
  /** TLS settings of the built-in fetcher for `https` (a custom `fetch` brings its own). */
  readonly tls?: MetricsTlsOptions;
  /** Cap of the exponential backoff after failures. @defaultValue 2000 */
  readonly maxBackoffMs?: number;
  /** Transport. @defaultValue a keep-alive `node:http`/`node:https` fetcher ({@link createHttpMetricsFetcher}) */
  readonly fetch?: MetricsFetcher;
  /** Mapping overrides per engine type (e.g. a fork with renamed metrics). */
  readonly mappings?: Partial<Record<EngineType, EngineMetricMapping>>;
  /** Largest page accepted (characters); a larger one is a failed scrape. @defaultValue 8 MiB */
  readonly maxPageBytes?: number;
  /**
   * Pages above this size are polled less often: the next poll waits `intervalMs` times the
   * page's size in multiples of this (capped at `maxBackoffMs`). @defaultValue 1 MiB
   */
  readonly largePageBytes?: number;
}

/**
 * Scrape health of one endpoint.
 * @public
 * @category Model-server metrics
 */
export interface ScrapeStatus {
  /** Clock time of the last successful scrape, or undefined before the first one. */
  readonly lastSuccessAt: number | undefined;
  /** Error of the last failed scrape (cleared by a success). */
  readonly lastError: SwitchyardError | undefined;
  /** Failures since the last success. */
  readonly consecutiveFailures: number;
  /** Whether a poll is in flight right now. */
  readonly polling: boolean;
}

/**
 * Events of {@link MetricsScraper}.
 * @public
 * @category Model-server metrics
 */
export interface MetricsScraperEvents {
  /** A scrape succeeded and `pool.setMetrics` was called. */
  scrape: [endpoint: Endpoint, metrics: EndpointMetrics];
  /**
   * A scrape failed; the next poll is delayed by the backoff. `stage` is where: `poll` (the page
   * could not be fetched: refused, timed out, a non-200 status, too large) or `extract` (the page
   * came but its metrics could not be read), as llm-d counts poll and extract errors apart.
   */
  error: [endpoint: Endpoint, error: SwitchyardError, consecutiveFailures: number, stage: ScrapeFailureStage];
  /** A scrape succeeded after `failures` failed ones (right after its `scrape` event). */
  recovered: [endpoint: Endpoint, failures: number];
}

/**
 * Where a scrape failed: fetching the page (`poll`) or reading metrics out of it (`extract`).
 * @public
 * @category Model-server metrics
 */
export type ScrapeFailureStage = 'poll' | 'extract';

interface State {
  readonly id: string;
  timer: TimerHandle | undefined;
  abort: AbortController | undefined;
  inFlight: Promise<void> | undefined;
  lastSuccessAt: number | undefined;
  lastError: SwitchyardError | undefined;
  failures: number;
  stopped: boolean;
  /** Size of the last page read, for the large-page backoff. */
  pageSize: number;
  /** Successful polls, to schedule full reads. */
  polls: number;
  /** Whether the page had LoRA info the last time it was looked for. */
  lora: boolean;
}

/**
 * Polls every endpoint of a pool for model-server metrics and pushes them with
 * `pool.setMetrics`. One poll per endpoint at a time; the next poll is due `intervalMs` after the
 * previous one started (or right after it finished, if it took longer). Failures back off
 * exponentially (`intervalMs · 2^failures`, capped) and reset on success. Users with their own
 * telemetry skip the scraper and call `pool.setMetrics` themselves.
 * @public
 * @category Model-server metrics
 */
export class MetricsScraper extends EventEmitter<MetricsScraperEvents> {
  readonly #pool: EndpointPool;
  readonly #clock: Clock;
  readonly #interval: number;
  readonly #timeout: number;
  readonly #path: string;
  readonly #scheme: 'http' | 'https';
  readonly #maxBackoff: number;
  readonly #fetch: MetricsFetcher;
  readonly #fetchBytes: HttpMetricsFetcher['fetchBytes'] | undefined;
  readonly #closeFetcher: (() => void) | undefined;
  readonly #mappings: Readonly<Record<EngineType, EngineMetricMapping>>;
  readonly #filters = new Map<EngineMetricMapping, MappingFilter>();
  readonly #maxPage: number;
  readonly #largePage: number;
  readonly #states = new Map<string, State>();
  #running = false;

  /** @throws SwitchyardError `CONFIG_INVALID` on an interval below 50 ms or a non-positive timeout */
  constructor(options: MetricsScraperOptions) {
    super();
    const interval = options.intervalMs ?? MIN_SCRAPE_INTERVAL_MS;
    const timeout = options.timeoutMs ?? 1000;
    if (!Number.isFinite(interval) || interval < MIN_SCRAPE_INTERVAL_MS) {
      throw new SwitchyardError('CONFIG_INVALID', `metrics scraper intervalMs must be a number >= ${MIN_SCRAPE_INTERVAL_MS}, got ${String(interval)}`);
    }
    if (!Number.isFinite(timeout) || timeout <= 0) throw new SwitchyardError('CONFIG_INVALID', `metrics scraper timeoutMs must be a positive number, got ${String(timeout)}`);
    this.#pool = options.pool;
    this.#clock = options.clock ?? systemClock;
    this.#interval = interval;
    this.#timeout = timeout;
    this.#path = options.path ?? '/metrics';
    // Checked as a plain string: JavaScript callers and parsed configs may pass anything.
    const scheme: string = options.scheme ?? 'http';
    if (scheme !== 'http' && scheme !== 'https') throw new SwitchyardError('CONFIG_INVALID', `metrics scraper scheme must be "http" or "https", got ${JSON.stringify(scheme)}`);
    this.#scheme = scheme;
    if (options.tls !== undefined && options.fetch !== undefined) {
      throw new SwitchyardError('CONFIG_INVALID', 'metrics scraper: `tls` configures the built-in fetcher; give TLS settings to your own `fetch` instead');
    }
    this.#maxBackoff = Math.max(interval, options.maxBackoffMs ?? 2000);
    this.#maxPage = positive(options.maxPageBytes, 8 * 1024 * 1024, 'maxPageBytes');
    this.#largePage = positive(options.largePageBytes, 1024 * 1024, 'largePageBytes');
    if (options.fetch === undefined) {
      const fetcher = createHttpMetricsFetcher({ maxBytes: this.#maxPage, ...(options.tls === undefined ? {} : { tls: options.tls }) });
      this.#fetch = fetcher;
      this.#fetchBytes = fetcher.fetchBytes;
      this.#closeFetcher = () => { fetcher.close(); };
    } else {
      this.#fetch = options.fetch;
      this.#fetchBytes = undefined;
      this.#closeFetcher = undefined;
    }
    this.#mappings = { ...ENGINE_METRIC_MAPPINGS, ...options.mappings };
  }

  /** Starts polling every current endpoint and follows pool membership. Idempotent. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#pool.on('added', this.#onAdded);
    this.#pool.on('removed', this.#onRemoved);
    for (const ep of this.#pool.list()) this.#onAdded(ep);
  }

  /** Stops polling, aborts polls in flight and resolves once they have settled. */
  async stop(): Promise<void> {
    if (!this.#running) return;
    this.#running = false;
    this.#pool.off('added', this.#onAdded);
    this.#pool.off('removed', this.#onRemoved);
    const pending = [...this.#states.values()].map((s) => this.#halt(s));
    this.#states.clear();
    await Promise.all(pending);
    this.#closeFetcher?.();
  }

  /** Milliseconds since the last successful scrape of `id`; Infinity before the first; undefined for unknown ids. */
  staleness(id: string): number | undefined {
    const s = this.#states.get(id);
    if (s === undefined) return undefined;
    return s.lastSuccessAt === undefined ? Infinity : this.#clock.now() - s.lastSuccessAt;
  }

  /** Scrape health of `id`, or undefined when it is not being scraped. */
  status(id: string): ScrapeStatus | undefined {
    const s = this.#states.get(id);
    if (s === undefined) return undefined;
    return { lastSuccessAt: s.lastSuccessAt, lastError: s.lastError, consecutiveFailures: s.failures, polling: s.inFlight !== undefined };
  }

  /** URL polled for an endpoint. */
  urlOf(endpoint: Endpoint): string {
    return `${this.#scheme}://${joinHostPort(endpoint.metricsHost ?? endpoint.ip, endpoint.metricsPort)}${this.#path}`;
  }

  readonly #onAdded = (endpoint: Endpoint): void => {
    if (this.#states.has(endpoint.id)) return;
    const state: State = { id: endpoint.id, timer: undefined, abort: undefined, inFlight: undefined, lastSuccessAt: undefined, lastError: undefined, failures: 0, stopped: false, pageSize: 0, polls: 0, lora: true };
    this.#states.set(endpoint.id, state);
    this.#poll(state);
  };

  readonly #onRemoved = (endpoint: Endpoint): void => {
    const state = this.#states.get(endpoint.id);
    if (state === undefined) return;
    this.#states.delete(endpoint.id);
    void this.#halt(state);
  };

  #halt(state: State): Promise<void> {
    state.stopped = true;
    if (state.timer !== undefined) this.#clock.clearTimeout(state.timer);
    state.timer = undefined;
    state.abort?.abort(new Error('scraper stopped'));
    return state.inFlight ?? Promise.resolve();
  }

  #poll(state: State): void {
    state.timer = undefined;
    const endpoint = this.#pool.get(state.id);
    if (state.stopped || endpoint === undefined) return;
    const startedAt = this.#clock.now();
    state.inFlight = this.#scrape(state, endpoint).finally(() => {
      state.inFlight = undefined;
      if (state.stopped) return;
      // A large page costs CPU in proportion to its size: poll it less often, by that proportion.
      const pages = Math.max(1, Math.ceil(state.pageSize / this.#largePage));
      const delay = state.failures === 0
        ? Math.max(0, Math.min(this.#maxBackoff, this.#interval * pages) - (this.#clock.now() - startedAt))
        : Math.min(this.#maxBackoff, this.#interval * 2 ** Math.min(state.failures, 30));
      state.timer = this.#clock.setTimeout(() => { this.#poll(state); }, delay);
    });
  }

  async #scrape(state: State, endpoint: Endpoint): Promise<void> {
    const url = this.urlOf(endpoint);
    const abort = new AbortController();
    state.abort = abort;
    const timer = this.#clock.setTimeout(() => {
      abort.abort(new Error(`timed out after ${this.#timeout} ms`));
    }, this.#timeout);
    let stage: ScrapeFailureStage = 'poll';
    try {
      const page = this.#fetchBytes === undefined ? await this.#fetch(url, abort.signal) : await this.#fetchBytes(url, abort.signal);
      if (state.stopped) return;
      if (abort.signal.aborted) throw abort.signal.reason;
      state.pageSize = page.length;
      if (page.length > this.#maxPage) throw new Error(`page of ${page.length} characters exceeds maxPageBytes ${this.#maxPage}`);
      stage = 'extract';
      const mapping = this.#mappings[endpoint.engineType];
      const f = this.#filterFor(mapping);
      const full = state.polls % FULL_READ_EVERY === 0;
      const until = full ? f.all : state.lora ? f.loadAndLora : f.loadOnly;
      // Bytes: only the wanted families' blocks are decoded (the buffer is reused by the next poll).
      const text = typeof page === 'string' ? page : selectFamilySections(page, page.length, f.filter, until);
      const index = indexSamples(parsePrometheusText(text, { filter: f.filter, until }));
      if (full || f.lora.some((g) => g.some((n) => index.has(n)))) state.lora = f.lora.some((g) => g.some((n) => index.has(n)));
      const missing = missingCoreMetrics(mapping, index);
      if (missing.length === 3) throw new Error(`no ${endpoint.engineType} metrics in the response (expected ${missing.join(', ')})`);
      const metrics = extractEndpointMetrics(mapping, index, this.#clock.now(), endpoint.metrics);
      const failed = state.failures;
      state.failures = 0;
      state.polls++;
      state.lastError = undefined;
      state.lastSuccessAt = this.#clock.now();
      this.#pool.setMetrics(endpoint.id, metrics);
      this.emit('scrape', endpoint, metrics);
      if (failed > 0) this.emit('recovered', endpoint, failed);
    } catch (err) {
      if (state.stopped) return;
      // Not stopped, so an abort can only be the timeout; transports report aborts generically.
      const cause: unknown = abort.signal.aborted ? abort.signal.reason : err;
      const detail = cause instanceof Error ? cause.message : String(cause);
      const error = new SwitchyardError(abort.signal.aborted ? 'UPSTREAM_TIMEOUT' : 'UPSTREAM_UNAVAILABLE', `metrics scrape of endpoint "${endpoint.id}" (${url}) failed: ${detail}`, { cause });
      state.failures++;
      state.lastError = error;
      this.emit('error', endpoint, error, state.failures, stage);
    } finally {
      this.#clock.clearTimeout(timer);
      state.abort = undefined;
    }
  }

  #filterFor(mapping: EngineMetricMapping): MappingFilter {
    let entry = this.#filters.get(mapping);
    if (entry === undefined) {
      // Families are keyed by their declared name, which may drop a suffix of the sample name
      // (an `info` family `x` owns sample `x_info`), so accept those stems too.
      const withStems = (ns: Iterable<string>): string[] => {
        const out = [...ns];
        for (const n of [...out]) for (const suffix of ['_info', '_total']) if (n.endsWith(suffix)) out.push(n.slice(0, -suffix.length));
        return out;
      };
      const names = new Set(withStems(mappingMetricNames(mapping)));
      // One group per value the mapping reads: once each has a family, the rest of the page is skipped.
      const groups = (fields: readonly (readonly { readonly name: string }[])[]): string[][] => fields.filter((f) => f.length > 0).map((f) => withStems(f.map((sel) => sel.name)));
      const load = groups([mapping.waiting, mapping.running, mapping.kvUsage]);
      const lora = groups([mapping.loraInfo]);
      const cache = groups([mapping.cacheInfo, mapping.cacheBlockSize, mapping.cacheNumBlocks]);
      entry = { filter: (name) => names.has(name), all: [...load, ...lora, ...cache], load, lora, cache, loadOnly: load, loadAndLora: [...load, ...lora] };
      this.#filters.set(mapping, entry);
    }
    return entry;
  }
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new SwitchyardError('CONFIG_INVALID', `metrics scraper ${name} must be a positive number, got ${String(value)}`);
  return value;
}
