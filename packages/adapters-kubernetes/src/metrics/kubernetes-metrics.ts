import { Counter, Gauge, Registry } from 'prom-client';
import { systemClock, type Clock } from '@switchyard/core';

/**
 * Options of {@link KubernetesMetrics}.
 * @public
 * @category Metrics
 */
export interface KubernetesMetricsOptions {
  /** Registry to register in. @defaultValue a new one */
  readonly registry?: Registry;
  /** Time source of the sync ages. @defaultValue systemClock */
  readonly clock?: Clock;
}

/**
 * Metrics of Kubernetes discovery: watch restarts, relists, the age of each watched resource's
 * last successful sync (list or event), discovered endpoints and leadership.
 * @public
 * @category Metrics
 */
export class KubernetesMetrics {
  /** Where the series live (serve it from `/metrics`). */
  readonly registry: Registry;
  /** `switchyard_kubernetes_watch_restarts_total{resource}`: informers restarted after an error. */
  readonly watchRestarts: Counter<'resource'>;
  /** `switchyard_kubernetes_relists_total{resource}`: full lists (start, 410, restart after a lost watch). */
  readonly relists: Counter<'resource'>;
  /** `switchyard_kubernetes_endpoints{pool,state}`: endpoints `ready` in the pool and `pending` their first scrape. */
  readonly endpoints: Gauge<'pool' | 'state'>;
  /** `switchyard_kubernetes_leader{lease}`: 1 while this process holds the Lease. */
  readonly leader: Gauge<'lease'>;
  readonly #lastSync = new Map<string, number>();
  readonly #clock: Clock;

  constructor(options: KubernetesMetricsOptions = {}) {
    this.registry = options.registry ?? new Registry();
    this.#clock = options.clock ?? systemClock;
    const registers = [this.registry];
    this.watchRestarts = new Counter({ name: 'switchyard_kubernetes_watch_restarts_total', help: 'Kubernetes informers restarted after a watch or list error.', labelNames: ['resource'], registers });
    this.relists = new Counter({ name: 'switchyard_kubernetes_relists_total', help: 'Full lists of a watched Kubernetes resource.', labelNames: ['resource'], registers });
    this.endpoints = new Gauge({ name: 'switchyard_kubernetes_endpoints', help: 'Endpoints discovered from Kubernetes, by state (ready: in the pool; pending: waiting for a first scrape).', labelNames: ['pool', 'state'], registers });
    this.leader = new Gauge({ name: 'switchyard_kubernetes_leader', help: '1 while this process holds the leader Lease.', labelNames: ['lease'], registers });
    const lastSync = this.#lastSync;
    const clock = this.#clock;
    new Gauge({
      name: 'switchyard_kubernetes_last_sync_age_seconds',
      help: 'Seconds since the last successful list or watch event of a Kubernetes resource.',
      labelNames: ['resource'],
      registers,
      collect() {
        this.reset();
        for (const [resource, at] of lastSync) this.set({ resource }, Math.max(0, clock.now() - at) / 1000);
      },
    });
  }

  /** Records that `resource` was just in sync with the API server. */
  synced(resource: string): void {
    this.#lastSync.set(resource, this.#clock.now());
  }
}
