import { ENGINE_METRIC_MAPPINGS, ENGINE_TYPE_LABEL, ENGINE_TYPE_LABEL_FALLBACK, createHttpMetricsFetcher, extractEndpointMetrics, parsePrometheusText, systemClock, type Clock, type EndpointMetrics, type EndpointPool, type EndpointSpec, type EngineType, type MetricsTlsOptions, type TimerHandle } from '@switchyard/core';
import { joinHostPort, parseAddress } from '@switchyard/core/internal';

/**
 * Fetches an endpoint's first metrics; rejects when the model server does not answer. @public
 * @category Discovery
 */
export type EndpointProbe = (spec: EndpointSpec, signal: AbortSignal) => Promise<EndpointMetrics>;

/**
 * Options of {@link EndpointJoiner}.
 * @public
 * @category Discovery
 */
export interface EndpointJoinerOptions {
  /** The pool the picker schedules over. */
  readonly pool: EndpointPool;
  /** First scrape before joining; `false` joins at once (metrics are pushed or not used). @defaultValue {@link httpEndpointProbe}() */
  readonly probe?: EndpointProbe | false | undefined;
  readonly clock?: Clock | undefined;
  /** Delay between probes of an endpoint that does not answer yet. @defaultValue 500 */
  readonly retryMs?: number | undefined;
  /** Called when the pending / ready counts change. */
  readonly onCounts?: ((ready: number, pending: number) => void) | undefined;
}

interface Pending {
  spec: EndpointSpec;
  readonly abort: AbortController;
  timer: TimerHandle | undefined;
}

function engineOf(labels: Readonly<Record<string, string>> | undefined): EngineType {
  const raw = labels?.[ENGINE_TYPE_LABEL] ?? labels?.[ENGINE_TYPE_LABEL_FALLBACK] ?? 'vllm';
  return raw in ENGINE_METRIC_MAPPINGS ? (raw as EngineType) : 'vllm';
}

/**
 * The default probe: GET `http(s)://ip:metricsPort<path>` and extract the engine's metrics.
 * @public
 * @category Discovery
 */
export function httpEndpointProbe(options: { path?: string; scheme?: 'http' | 'https'; tls?: MetricsTlsOptions; clock?: Clock; timeoutMs?: number } = {}): EndpointProbe & { close(): void } {
  // One socket per host and no keep-alive reuse needed: a probe runs once per joining endpoint.
  const fetcher = createHttpMetricsFetcher({ maxSocketsPerHost: 1, ...(options.tls === undefined ? {} : { tls: options.tls }) });
  const clock = options.clock ?? systemClock;
  const timeoutMs = options.timeoutMs ?? 1000;
  const probe = async (spec: EndpointSpec, signal: AbortSignal): Promise<EndpointMetrics> => {
    const { ip, port } = parseAddress(spec.address);
    const url = `${options.scheme ?? 'http'}://${joinHostPort(ip, spec.metricsPort ?? port)}${options.path ?? '/metrics'}`;
    const timeout = new AbortController();
    const timer = clock.setTimeout(() => { timeout.abort(new Error(`metrics probe timed out after ${String(timeoutMs)} ms`)); }, timeoutMs);
    try {
      const text = await fetcher(url, AbortSignal.any([signal, timeout.signal]));
      return extractEndpointMetrics(engineOf(spec.labels), parsePrometheusText(text), clock.now());
    } finally {
      clock.clearTimeout(timer);
    }
  };
  return Object.assign(probe, { close: () => { fetcher.close(); } });
}

/**
 * Puts discovered endpoints into the pool the way llm-d's datastore does, with one difference
 * that keeps requests from going to a model server that is not up yet: a new endpoint joins only
 * once its first metrics scrape succeeded (retried until then). Updates of a member (labels) apply
 * at once, and an endpoint that leaves is removed at once; requests already sent to it finish
 * (the pool ignores their completion).
 * @public
 * @category Discovery
 */
export class EndpointJoiner {
  readonly #pool: EndpointPool;
  readonly #probe: EndpointProbe | false;
  readonly #clock: Clock;
  readonly #retryMs: number;
  readonly #pending = new Map<string, Pending>();
  readonly #onCounts: ((ready: number, pending: number) => void) | undefined;
  #closed = false;
  readonly #ownProbe: { close(): void } | undefined;

  constructor(options: EndpointJoinerOptions) {
    this.#pool = options.pool;
    this.#clock = options.clock ?? systemClock;
    if (options.probe === undefined) {
      const own = httpEndpointProbe({ clock: this.#clock });
      this.#ownProbe = own;
      this.#probe = own;
    } else this.#probe = options.probe;
    this.#retryMs = options.retryMs ?? 500;
    this.#onCounts = options.onCounts;
  }

  /** Ids waiting for their first scrape. */
  get pendingIds(): string[] {
    return [...this.#pending.keys()];
  }

  /** Adds or updates an endpoint. */
  join(spec: EndpointSpec): void {
    const id = spec.id ?? spec.address;
    if (this.#closed) return;
    const waiting = this.#pending.get(id);
    if (waiting !== undefined) {
      waiting.spec = spec;
      return;
    }
    if (this.#pool.get(id) !== undefined || this.#probe === false) {
      this.#pool.upsert(spec);
      this.#counts();
      return;
    }
    const p: Pending = { spec, abort: new AbortController(), timer: undefined };
    this.#pending.set(id, p);
    this.#counts();
    this.#attempt(id, p);
  }

  /** Removes an endpoint now (or stops waiting for it). */
  leave(id: string): void {
    const p = this.#pending.get(id);
    if (p !== undefined) {
      this.#pending.delete(id);
      p.abort.abort();
      if (p.timer !== undefined) this.#clock.clearTimeout(p.timer);
    }
    this.#pool.remove(id);
    this.#counts();
  }

  /** Stops every pending probe; members stay in the pool. */
  close(): void {
    this.#closed = true;
    this.#ownProbe?.close();
    for (const id of [...this.#pending.keys()]) {
      const p = this.#pending.get(id);
      this.#pending.delete(id);
      p?.abort.abort();
      if (p?.timer !== undefined) this.#clock.clearTimeout(p.timer);
    }
  }

  #attempt(id: string, p: Pending): void {
    if (this.#probe === false) return;
    this.#probe(p.spec, p.abort.signal).then(
      (metrics) => {
        if (this.#pending.get(id) !== p) return;
        this.#pending.delete(id);
        this.#pool.upsert(p.spec);
        this.#pool.setMetrics(id, metrics);
        this.#counts();
      },
      () => {
        if (this.#pending.get(id) !== p) return;
        p.timer = this.#clock.setTimeout(() => {
          p.timer = undefined;
          if (this.#pending.get(id) === p) this.#attempt(id, p);
        }, this.#retryMs);
      },
    );
  }

  #counts(): void {
    this.#onCounts?.(this.#pool.size, this.#pending.size);
  }
}
