import type { Registry } from 'prom-client';
import type { Clock } from '../clock/clock.js';
import type { EndpointPool } from '../endpoints/pool.js';
import type { Endpoint, EndpointMetrics } from '../endpoints/types.js';
import type { FastMetricSample, FastMetricValues } from './fast-metric.js';
import { registerDeprecatedTwin, sameLabels } from './deprecated-twin.js';
import { splitEndpointId } from '../endpoints/endpoint-id.js';

/** One pool the gauges summarise. */
interface WatchedPool {
  readonly name: string;
  readonly pool: EndpointPool;
  readonly clock: Clock;
  readonly stalenessMs: number;
}

type Stat = 'mean' | 'stddev';

/** What each summary gauge reads from an endpoint's metrics. */
const FIELDS: readonly { readonly suffix: string; readonly read: (m: EndpointMetrics) => number; readonly help: string }[] = [
  { suffix: 'kv_cache_utilization', read: (m) => m.kvCacheUsagePercent, help: 'KV-cache usage fraction' },
  { suffix: 'queue_size', read: (m) => m.waitingQueueSize, help: 'waiting queue' },
  { suffix: 'running_requests', read: (m) => m.runningRequestsSize, help: 'running requests' },
];

/** Rounded to 2 decimals, as llm-d writes these gauges. */
const round2 = (v: number): number => Math.round(v * 100) / 100;

/** Mean and sample standard deviation (n − 1 denominator, at least 1), as llm-d computes them. */
function stats(values: readonly number[]): { mean: number; stddev: number } {
  const n = values.length;
  let sum = 0;
  for (const v of values) sum += v;
  const mean = sum / n;
  let sq = 0;
  for (const v of values) sq += (v - mean) ** 2;
  return { mean: round2(mean), stddev: round2(Math.sqrt(sq / Math.max(1, n - 1))) };
}

/**
 * A gauge computed when scraped: prom-client's `Registry` needs only `name` and `get()`, so the
 * values are read from the pools at scrape time and the request path never touches them.
 */
class ScrapeGauge {
  constructor(
    readonly name: string,
    readonly help: string,
    readonly collect: () => FastMetricSample[],
  ) {}

  get(): Promise<FastMetricValues> {
    return Promise.resolve({ name: this.name, help: this.help, type: 'gauge', values: this.collect(), aggregator: 'sum' });
  }
}

/**
 * llm-d's pool summary gauges, computed at scrape time over each pool's endpoints whose metrics
 * are fresh (updated within the staleness threshold): `average_*` and `std_dev_*` of KV-cache
 * usage, waiting queue and running requests, labelled `name` (the pool), and
 * `per_endpoint_queue_size{name, model_server_endpoint}`. As in llm-d, a pool without fresh
 * endpoints writes no summary series.
 * @internal
 */
export class PoolGauges {
  readonly #pools = new Map<string, WatchedPool>();

  /** @param twins - also register llm-d's deprecated `inference_pool_*` twins */
  constructor(registry: Registry, prefix: string, twins: boolean) {
    const register = (g: ScrapeGauge): void => {
      // registerMetric is typed for prom-client's classes only; at run time it needs name + get().
      (registry as unknown as { registerMetric(m: unknown): void }).registerMetric(g);
    };
    for (const f of FIELDS) {
      for (const [stat, name] of [['mean', `${prefix}average_${f.suffix}`], ['stddev', `${prefix}std_dev_${f.suffix}`]] as const) {
        const help = `${stat === 'mean' ? 'Mean' : 'Sample standard deviation of the'} ${f.help} over the pool's endpoints with fresh metrics.`;
        const gauge = new ScrapeGauge(name, help, () => this.#summary(f.read, stat));
        register(gauge);
        // llm-d kept the old names of the averages only (no std_dev twins).
        if (twins && stat === 'mean') registerDeprecatedTwin(registry, `inference_pool_average_${f.suffix}`, gauge, name, sameLabels('name'));
      }
    }
    const perEndpoint = new ScrapeGauge(`${prefix}per_endpoint_queue_size`, "Each endpoint's waiting queue (model_server_endpoint: the endpoint's name).", () => this.#perEndpoint());
    register(perEndpoint);
    if (twins) registerDeprecatedTwin(registry, 'inference_pool_per_pod_queue_size', perEndpoint, perEndpoint.name, [['name', 'name'], ['model_server_pod', 'model_server_endpoint']]);
  }

  /** Summarises `pool` under `name`; returns the detach function. */
  watch(name: string, pool: EndpointPool, clock: Clock, stalenessMs: number): () => void {
    const entry = { name, pool, clock, stalenessMs };
    this.#pools.set(name, entry);
    return () => {
      if (this.#pools.get(name) === entry) this.#pools.delete(name);
    };
  }

  #fresh(p: WatchedPool): { endpoint: Endpoint; metrics: EndpointMetrics }[] {
    const now = p.clock.now();
    const out: { endpoint: Endpoint; metrics: EndpointMetrics }[] = [];
    for (const e of p.pool.list()) {
      const m = e.metrics;
      if (m !== undefined && now - m.updatedAt <= p.stalenessMs) out.push({ endpoint: e, metrics: m });
    }
    return out;
  }

  #summary(read: (m: EndpointMetrics) => number, stat: Stat): FastMetricSample[] {
    const out: FastMetricSample[] = [];
    for (const p of this.#pools.values()) {
      const fresh = this.#fresh(p);
      if (fresh.length === 0) continue;
      const s = stats(fresh.map((f) => read(f.metrics)));
      out.push({ labels: { name: p.name }, value: stat === 'mean' ? s.mean : s.stddev });
    }
    return out;
  }

  #perEndpoint(): FastMetricSample[] {
    const out: FastMetricSample[] = [];
    for (const p of this.#pools.values()) {
      for (const e of p.pool.list()) {
        if (e.metrics === undefined) continue;
        out.push({ labels: { name: p.name, model_server_endpoint: splitEndpointId(e.id).name }, value: e.metrics.waitingQueueSize });
      }
    }
    return out;
  }
}

