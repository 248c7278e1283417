import { z } from 'zod';
import type { Clock, TimerHandle } from '../../clock/clock.js';
import { joinHostPort } from '../../endpoints/address.js';
import type { EndpointPool } from '../../endpoints/pool.js';
import type { Endpoint } from '../../endpoints/types.js';
import { createHttpMetricsFetcher, type MetricsFetcher } from '../../model-metrics/http-fetcher.js';
import { parsePrometheusText } from '../../model-metrics/prometheus-text.js';
import { MIN_SCRAPE_INTERVAL_MS } from '../../model-metrics/scraper.js';
import { durationSchema } from '../../config/duration.js';
import { definePlugin } from '../../registry/types.js';
import type { Plugin } from '../../scheduling/plugins.js';
import { isDcgmExtractor, type DcgmExtractor } from './dcgm-extractor.js';

/**
 * Type of llm-d's NVIDIA DCGM exporter source. @public
 * @category Built-in plugins
 */
export const DCGM_DATA_SOURCE = 'dcgm-data-source';

/**
 * Parameters of `dcgm-data-source`, with llm-d's names and defaults: the DCGM exporter's port
 * 9400 and `/metrics` on each endpoint's host, polled every `interval` (default: the 50 ms base
 * tick, as llm-d's `--refresh-metrics-interval`).
 * @public
 * @category Built-in plugins
 */
export const dcgmDataSourceParameters = z
  .strictObject({
    scheme: z.enum(['http', 'https']).default('http'),
    path: z.string().startsWith('/').default('/metrics'),
    port: z.number().int().min(1).max(65535).default(9400),
    insecureSkipVerify: z.boolean().default(true),
    interval: z.union([z.literal(''), durationSchema]).optional(),
  })
  .prefault({});

/**
 * A `dcgm-data-source` instance: it polls every endpoint's DCGM exporter and hands each page to
 * the `dcgm-extractor` instances wired to it in `dataLayer.sources` (polling starts when the
 * first extractor is attached and stops at `close()`).
 * @public
 * @category Built-in plugins
 */
export interface DcgmDataSource extends Plugin {
  /** Exporter URL of an endpoint. */
  urlOf(endpoint: Endpoint): string;
  /** Wires extractors to this source (the config loader calls it for `dataLayer.sources`). */
  attachExtractors(extractors: readonly Plugin[]): void;
  /** Polls every endpoint once now and resolves when every page was handled (tests, warm-up). */
  pollOnce(): Promise<void>;
  /** Consecutive failed polls of an endpoint (0 after a success). */
  failures(endpointId: string): number;
}

/**
 * True when `p` is a {@link DcgmDataSource}. @public
 * @category Built-in plugins
 */
export function isDcgmDataSource(p: Plugin): p is DcgmDataSource {
  return p.type === DCGM_DATA_SOURCE && typeof (p as Partial<DcgmDataSource>).attachExtractors === 'function';
}

type Params = z.output<typeof dcgmDataSourceParameters>;
const POLL_TIMEOUT_MS = 1000;

class DcgmPoller implements DcgmDataSource {
  readonly type = DCGM_DATA_SOURCE;
  readonly #extractors: DcgmExtractor[] = [];
  readonly #failures = new Map<string, number>();
  readonly #inFlight = new Set<string>();
  readonly #abort = new AbortController();
  readonly #intervalMs: number;
  #fetch: (MetricsFetcher & { close?(): void }) | undefined;
  #timer: TimerHandle | undefined;
  #closed = false;

  constructor(readonly name: string, private readonly params: Params, private readonly pool: EndpointPool, private readonly clock: Clock, fetch?: MetricsFetcher) {
    const ms = params.interval === undefined || params.interval === '' ? MIN_SCRAPE_INTERVAL_MS : params.interval;
    this.#intervalMs = Math.max(MIN_SCRAPE_INTERVAL_MS, ms);
    this.#fetch = fetch;
  }

  urlOf(endpoint: Endpoint): string {
    return `${this.params.scheme}://${joinHostPort(endpoint.ip, this.params.port)}${this.params.path}`;
  }

  attachExtractors(extractors: readonly Plugin[]): void {
    for (const e of extractors) if (isDcgmExtractor(e) && !this.#extractors.includes(e)) this.#extractors.push(e);
    if (this.#extractors.length > 0 && this.#timer === undefined && !this.#closed) this.#schedule();
  }

  failures(endpointId: string): number {
    return this.#failures.get(endpointId) ?? 0;
  }

  async pollOnce(): Promise<void> {
    await Promise.all(this.pool.list().map((e) => this.#poll(e)));
    // Counters of endpoints that left the pool go, so the map stays as large as the pool.
    for (const id of this.#failures.keys()) if (this.pool.get(id) === undefined) this.#failures.delete(id);
  }

  #schedule(): void {
    this.#timer = this.clock.setTimeout(() => {
      void this.pollOnce().finally(() => {
        if (!this.#closed) this.#schedule();
      });
    }, this.#intervalMs);
  }

  async #poll(endpoint: Endpoint): Promise<void> {
    // One poll per endpoint at a time: a slow exporter is skipped, not piled up on.
    if (this.#closed || this.#inFlight.has(endpoint.id)) return;
    this.#inFlight.add(endpoint.id);
    this.#fetch ??= createHttpMetricsFetcher({ tls: { rejectUnauthorized: !this.params.insecureSkipVerify } });
    const timeout = new AbortController();
    const timer = this.clock.setTimeout(() => {
      timeout.abort();
    }, POLL_TIMEOUT_MS);
    try {
      const text = await this.#fetch(this.urlOf(endpoint), AbortSignal.any([timeout.signal, this.#abort.signal]));
      const families = parsePrometheusText(text);
      for (const e of this.#extractors) e.extract(endpoint, families);
      this.#failures.set(endpoint.id, 0);
    } catch {
      // An unreachable or malformed exporter only leaves that endpoint's utilization unknown.
      this.#failures.set(endpoint.id, this.failures(endpoint.id) + 1);
    } finally {
      this.clock.clearTimeout(timer);
      this.#inFlight.delete(endpoint.id);
    }
  }

  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) this.clock.clearTimeout(this.#timer);
    this.#abort.abort();
    this.#fetch?.close?.();
  }
}

/**
 * Creates a DCGM source directly (the plugin definition calls it; tests pass their own fetcher).
 * @public
 * @category Built-in plugins
 */
export function createDcgmDataSource(name: string, params: z.input<typeof dcgmDataSourceParameters>, deps: { pool: EndpointPool; clock: Clock; fetch?: MetricsFetcher }): DcgmDataSource {
  return new DcgmPoller(name, dcgmDataSourceParameters.parse(params), deps.pool, deps.clock, deps.fetch);
}

/**
 * `dcgm-data-source` (llm-d, alpha): scrapes the NVIDIA DCGM exporter (`:9400/metrics`) of every
 * endpoint's host for `dcgm-extractor`. `useNodeAddress` is accepted and not acted on: Switchyard
 * endpoints carry no node address, so the endpoint's own host is scraped.
 * @public
 * @category Built-in plugins
 */
export const dcgmDataSourcePlugin = definePlugin({
  type: DCGM_DATA_SOURCE,
  description: 'Data-layer source: polls each endpoint host\'s NVIDIA DCGM exporter for dcgm-extractor.',
  parameters: dcgmDataSourceParameters,
  notActedOn: { useNodeAddress: 'endpoints carry no node address; the endpoint\'s own host is scraped' },
  create: (p, ctx): DcgmDataSource => new DcgmPoller(ctx.name, p, ctx.pool, ctx.clock),
});
