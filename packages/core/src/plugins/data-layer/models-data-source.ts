import { z } from 'zod';
import type { Clock, TimerHandle } from '../../clock/clock.js';
import { durationSchema } from '../../config/duration.js';
import type { EndpointPool } from '../../endpoints/pool.js';
import type { Endpoint } from '../../endpoints/types.js';
import { createHttpMetricsFetcher, type MetricsFetcher } from '../../model-metrics/http-fetcher.js';
import { MIN_SCRAPE_INTERVAL_MS } from '../../model-metrics/scraper.js';
import { definePlugin } from '../../registry/types.js';
import type { Plugin } from '../../scheduling/plugins.js';
import { isModelsDataExtractor, type ModelsDataExtractor } from './models-data-extractor.js';

/**
 * Type of llm-d's `/v1/models` polling source. @public
 * @category Built-in plugins
 */
export const MODELS_DATA_SOURCE = 'models-data-source';

const unsetWhenEmpty = z.string().optional().transform((v) => (v === '' ? undefined : v));

/**
 * Parameters of `models-data-source`, with llm-d's names and defaults: `scheme` `http`, `path`
 * `/v1/models` on each endpoint's serving address, `insecureSkipVerify` true, `interval` (default
 * the 50 ms base tick). `caCertPath` / `clientCertPath` / `clientKeyPath` are accepted and not
 * acted on (see the plugin's `notActedOn`).
 * @public
 * @category Built-in plugins
 */
export const modelsDataSourceParameters = z
  .strictObject({
    scheme: z.enum(['http', 'https']).default('http'),
    path: z.string().startsWith('/').default('/v1/models'),
    insecureSkipVerify: z.boolean().default(true),
    caCertPath: unsetWhenEmpty,
    clientCertPath: unsetWhenEmpty,
    clientKeyPath: unsetWhenEmpty,
    interval: z.union([z.literal(''), durationSchema]).optional(),
  })
  .prefault({});

/**
 * A `models-data-source` instance: polls every endpoint's OpenAI models list and hands each
 * reply to the `models-data-extractor` instances wired to it (polling starts when the first
 * extractor is attached and stops at `close()`).
 * @public
 * @category Built-in plugins
 */
export interface ModelsDataSource extends Plugin {
  /** URL polled for an endpoint. */
  urlOf(endpoint: Endpoint): string;
  /** Wires extractors to this source (the config loader calls it for `dataLayer.sources`). */
  attachExtractors(extractors: readonly Plugin[]): void;
  /** True when at least one extractor is attached. */
  readonly attached: boolean;
  /** Polls every endpoint once now and resolves when every reply was handled. */
  pollOnce(): Promise<void>;
  /** Consecutive failed polls of an endpoint (0 after a success). */
  failures(endpointId: string): number;
}

/**
 * True when `p` is a {@link ModelsDataSource}. @public
 * @category Built-in plugins
 */
export function isModelsDataSource(p: Plugin): p is ModelsDataSource {
  return p.type === MODELS_DATA_SOURCE && typeof (p as Partial<ModelsDataSource>).attachExtractors === 'function';
}

type Params = z.output<typeof modelsDataSourceParameters>;
const POLL_TIMEOUT_MS = 1000;

class ModelsPoller implements ModelsDataSource {
  readonly type = MODELS_DATA_SOURCE;
  readonly #extractors: ModelsDataExtractor[] = [];
  readonly #failures = new Map<string, number>();
  readonly #inFlight = new Map<string, Promise<void>>();
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

  get attached(): boolean {
    return this.#extractors.length > 0;
  }

  urlOf(endpoint: Endpoint): string {
    return `${this.params.scheme}://${endpoint.address}${this.params.path}`;
  }

  attachExtractors(extractors: readonly Plugin[]): void {
    for (const e of extractors) if (isModelsDataExtractor(e) && !this.#extractors.includes(e)) this.#extractors.push(e);
    if (this.#extractors.length > 0 && this.#timer === undefined && !this.#closed) {
      // The first poll runs at once, so the models list is there as soon as the endpoints answer.
      void this.pollOnce().finally(() => {
        if (!this.#closed) this.#schedule();
      });
    }
  }

  failures(endpointId: string): number {
    return this.#failures.get(endpointId) ?? 0;
  }

  async pollOnce(): Promise<void> {
    await Promise.all(this.pool.list().map((e) => this.#poll(e)));
    for (const id of this.#failures.keys()) if (this.pool.get(id) === undefined) this.#failures.delete(id);
  }

  #schedule(): void {
    this.#timer = this.clock.setTimeout(() => {
      void this.pollOnce().finally(() => {
        if (!this.#closed) this.#schedule();
      });
    }, this.#intervalMs);
  }

  #poll(endpoint: Endpoint): Promise<void> {
    // One poll per endpoint at a time: a caller asking again waits for the running one.
    const running = this.#inFlight.get(endpoint.id);
    if (running !== undefined) return running;
    if (this.#closed) return Promise.resolve();
    const poll = this.#fetchOnce(endpoint).finally(() => this.#inFlight.delete(endpoint.id));
    this.#inFlight.set(endpoint.id, poll);
    return poll;
  }

  async #fetchOnce(endpoint: Endpoint): Promise<void> {
    this.#fetch ??= createHttpMetricsFetcher({ tls: { rejectUnauthorized: !this.params.insecureSkipVerify } });
    const timeout = new AbortController();
    const timer = this.clock.setTimeout(() => {
      timeout.abort();
    }, POLL_TIMEOUT_MS);
    try {
      const text = await this.#fetch(this.urlOf(endpoint), AbortSignal.any([timeout.signal, this.#abort.signal]));
      const body: unknown = JSON.parse(text);
      for (const e of this.#extractors) e.extract(endpoint, body);
      this.#failures.set(endpoint.id, 0);
    } catch {
      // An unreachable endpoint or a malformed list only leaves that endpoint's models unknown.
      this.#failures.set(endpoint.id, this.failures(endpoint.id) + 1);
    } finally {
      this.clock.clearTimeout(timer);
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
 * Creates a models source directly (the plugin definition calls it; tests pass their own fetcher).
 * @public
 * @category Built-in plugins
 */
export function createModelsDataSource(name: string, params: z.input<typeof modelsDataSourceParameters>, deps: { pool: EndpointPool; clock: Clock; fetch?: MetricsFetcher }): ModelsDataSource {
  return new ModelsPoller(name, modelsDataSourceParameters.parse(params), deps.pool, deps.clock, deps.fetch);
}

const TLS_FILES = 'custom CA and client certificates are not loaded for this source; use insecureSkipVerify or plain http';

/**
 * `models-data-source` (llm-d): polls `GET /v1/models` on every endpoint for
 * `models-data-extractor` (which `models-responder` reads).
 * @public
 * @category Built-in plugins
 */
export const modelsDataSourcePlugin = definePlugin({
  type: MODELS_DATA_SOURCE,
  description: 'Data-layer source: polls each endpoint\'s GET /v1/models for models-data-extractor.',
  parameters: modelsDataSourceParameters,
  notActedOn: { caCertPath: TLS_FILES, clientCertPath: TLS_FILES, clientKeyPath: TLS_FILES },
  create: (p, ctx): ModelsDataSource => new ModelsPoller(ctx.name, p, ctx.pool, ctx.clock),
});
