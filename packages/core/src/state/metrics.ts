import { Counter, Gauge, Registry } from 'prom-client';

/**
 * What happened to shared records, for `switchyard_shared_state_records_total{direction}`.
 * @public
 * @category Shared state across replicas
 */
export type RecordDirection = 'sent' | 'received' | 'dropped' | 'invalid';

/**
 * Prometheus metrics of one replica's shared state. The staleness gauge is what the sync interval
 * bounds: milliseconds since the last successful exchange, in seconds, read at scrape time.
 * @public
 * @category Shared state across replicas
 */
export class SharedStateMetrics {
  /** The registry holding these metrics. */
  readonly registry: Registry;
  /** `switchyard_shared_state_syncs_total{result}`: exchanges by result (`ok`, `error`, `skipped` while one is still running). */
  readonly syncs: Counter<'result'>;
  /** `switchyard_shared_state_records_total{direction}`: routing-history and session records. */
  readonly records: Counter<'direction'>;

  /**
   * @param status - read at scrape time for the connected, staleness and peers gauges
   */
  constructor(status: () => { connected: boolean; stalenessMs: number; peers: number }, registry: Registry = new Registry()) {
    this.registry = registry;
    const registers = [registry];
    this.syncs = new Counter({ name: 'switchyard_shared_state_syncs_total', help: 'Shared-state sync round trips, by result.', labelNames: ['result'], registers });
    this.records = new Counter({ name: 'switchyard_shared_state_records_total', help: 'Shared routing-history and session records, by direction.', labelNames: ['direction'], registers });
    new Gauge({
      name: 'switchyard_shared_state_connected',
      help: '1 when the last shared-state sync succeeded; 0 while this replica serves from local state only.',
      registers,
      collect() {
        this.set(status().connected ? 1 : 0);
      },
    });
    new Gauge({
      name: 'switchyard_shared_state_staleness_seconds',
      help: 'Age of the shared state this replica schedules with (time since the last successful sync).',
      registers,
      collect() {
        const ms = status().stalenessMs;
        this.set(Number.isFinite(ms) ? ms / 1000 : -1);
      },
    });
    new Gauge({
      name: 'switchyard_shared_state_peers',
      help: 'Other replicas whose in-flight load is counted.',
      registers,
      collect() {
        this.set(status().peers);
      },
    });
  }
}
