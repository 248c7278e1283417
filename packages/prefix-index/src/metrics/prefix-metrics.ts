import { Counter, Gauge, Registry } from 'prom-client';
import { FastCounter, FastGauge, FastHistogram, type FastCounterChild } from '@switchyard/core';
import { registerDeprecatedTwin } from '@switchyard/core/internal';
import { consoleLogger, OncePerCauseLogger, type PrefixIndexLogger } from '../api/logger.js';
import type { KvIngestObserver, KvIngestProblem } from '../precise/types.js';
import type { PreciseKvIndex } from '../precise/precise-index.js';
import { registerKvCacheIndexCounters } from './kv-cache-index-metrics.js';

/**
 * Metrics of the prefix-index package, registered in one prom-client registry. Names follow llm-d
 * where an equivalent exists (`llm_d_epp_prefix_indexer_*`, `llm_d_epp_kv_cache_index_*`); other KV-event metrics are our own.
 * @public
 * @category Metrics
 */
export interface PrefixIndexMetrics {
  /** The registry holding the metrics (expose it on `/metrics`, or merge it into yours). */
  readonly registry: Registry;
  /** `llm_d_epp_prefix_indexer_size{plugin_name,plugin_type}`: (block, endpoint) entries of each producer's index. */
  readonly indexSize: FastGauge<PrefixIndexerLabel>;
  /** `llm_d_epp_prefix_indexer_hit_ratio{plugin_name,plugin_type}`: matched / total blocks of the chosen endpoint per request. */
  readonly hitRatio: FastHistogram<PrefixIndexerLabel>;
  /** `llm_d_epp_prefix_indexer_hit_bytes{plugin_name,plugin_type}`: matched prompt bytes (tokens × 4) of the chosen endpoint per request. */
  readonly hitBytes: FastHistogram<PrefixIndexerLabel>;
  /** `switchyard_kv_events_total{type}`: KV events applied to the precise index (counted on every batch, so a fast counter). */
  readonly events: FastCounter<'type'>;
  /** `switchyard_kv_event_blocks_total{type}`: blocks named by applied events. */
  readonly blocks: FastCounter<'type'>;
  /** `switchyard_kv_event_errors_total{cause}`: payloads, frames or events rejected or skipped. */
  readonly errors: Counter;
  /** `switchyard_kv_event_gaps_total`: sequence gaps detected. */
  readonly gaps: Counter;
  /** `switchyard_kv_event_replays_total{outcome}`: replay requests (`success`, `incomplete`, `failure`). */
  readonly replays: Counter;
  /** `switchyard_kv_event_resets_total{reason}`: endpoints whose cache became unknown (`sequence-reset`, `disconnect`, `over-budget`). */
  readonly resets: Counter;
  /** `switchyard_kv_event_subscriptions`: connected KV-event subscriptions. */
  readonly subscriptions: Gauge;
  /** Logs each error cause once. */
  readonly log: OncePerCauseLogger;
  /** Observer to pass to `PreciseKvIndex` so ingestion feeds these metrics. */
  readonly observer: KvIngestObserver;
  /** Adds a precise index to the `llm_d_epp_kv_cache_index_*` counters (summed over tracked indexes at scrape time). */
  trackPreciseIndex(index: PreciseKvIndex): void;
  /** `llm_d_epp_kv_cache_index_lookup_latency_seconds` (and its `kvcache_*` twin): how long one precise-index lookup took. */
  readonly kvIndexLookupLatency: FastHistogram;
  /** Counts one error and logs its cause the first time. */
  error(cause: string, endpointId: string, detail: string): void;
}

/**
 * Labels of the `llm_d_epp_prefix_indexer_*` families: the producer's instance name and type.
 * @public
 * @category Metrics
 */
export type PrefixIndexerLabel = 'plugin_name' | 'plugin_type';

const INDEXER_LABELS: PrefixIndexerLabel[] = ['plugin_name', 'plugin_type'];

/**
 * Options of {@link createPrefixIndexMetrics}.
 * @public
 * @category Metrics
 */
export interface PrefixIndexMetricsOptions {
  /** Registry to register in (default: a new one, so nothing leaks into prom-client's global registry). */
  readonly registry?: Registry;
  /** Where first occurrences of error causes are logged (default: console). */
  readonly logger?: PrefixIndexLogger;
}

const LOOKUP_LATENCY = 'llm_d_epp_kv_cache_index_lookup_latency_seconds';
/** Go client_golang's DefBuckets, which llm-d's lookup-latency histogram uses. */
const PROMETHEUS_DEFAULT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function getOr<T>(registry: Registry, name: string, make: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? make();
}

/**
 * The prefix indexer family `name` (reused when the registry has it), with llm-d's deprecated
 * unlabelled twin `inference_extension_<suffix>` (the sum over producers) computed from it at
 * scrape time.
 */
function indexerFamily<T extends FastGauge<PrefixIndexerLabel> | FastHistogram<PrefixIndexerLabel>>(registry: Registry, suffix: string, make: (name: string) => T): T {
  const name = `llm_d_epp_${suffix}`;
  const existing = registry.getSingleMetric(name) as T | undefined;
  if (existing !== undefined) return existing;
  const family = make(name);
  registerDeprecatedTwin(registry, `inference_extension_${suffix}`, family, name, []);
  return family;
}

/**
 * Creates (or reuses, when the registry already has them) the package's metrics.
 * @public
 * @category Metrics
 */
export function createPrefixIndexMetrics(options: PrefixIndexMetricsOptions = {}): PrefixIndexMetrics {
  const registry = options.registry ?? new Registry();
  const registers = [registry];
  const counter = (name: string, help: string, labelNames: string[] = []): Counter =>
    getOr(registry, name, () => new Counter({ name, help, labelNames, registers }));
  const log = new OncePerCauseLogger(options.logger ?? consoleLogger);
  const errors = counter('switchyard_kv_event_errors_total', 'KV-event payloads, frames or events rejected or skipped, by cause.', ['cause']);
  const fastCounter = (name: string, help: string): FastCounter<'type'> =>
    getOr(registry, name, () => new FastCounter<'type'>({ name, help, labelNames: ['type'], registers }));
  const events = fastCounter('switchyard_kv_events_total', 'KV events applied to the precise prefix index, by type.');
  const blocks = fastCounter('switchyard_kv_event_blocks_total', 'Blocks named by applied KV events, by event type.');
  // Every ingested batch counts: resolve each type's series once instead of per call.
  const eventsOf = new Map<string, FastCounterChild>();
  const blocksOf = new Map<string, FastCounterChild>();
  const child = (m: Map<string, FastCounterChild>, c: FastCounter<'type'>, type: string): FastCounterChild => {
    let ch = m.get(type);
    if (ch === undefined) m.set(type, (ch = c.labels(type)));
    return ch;
  };
  const error = (cause: string, endpointId: string, detail: string): void => {
    errors.inc({ cause });
    log.warn(cause, `kv events: ${cause}: ${detail}`, { endpoint: endpointId });
  };
  return {
    registry,
    indexSize: indexerFamily(registry, 'prefix_indexer_size', (name) => new FastGauge<PrefixIndexerLabel>({ name, help: 'Prefix index entries ((block, endpoint) pairs), per producer.', labelNames: INDEXER_LABELS, registers })),
    hitRatio: indexerFamily(registry, 'prefix_indexer_hit_ratio', (name) =>
      new FastHistogram<PrefixIndexerLabel>({ name, help: 'Matched / total prompt blocks of the chosen endpoint, per request.', labelNames: INDEXER_LABELS, buckets: [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1], registers }),
    ),
    hitBytes: indexerFamily(registry, 'prefix_indexer_hit_bytes', (name) =>
      new FastHistogram<PrefixIndexerLabel>({ name, help: 'Matched prompt bytes of the chosen endpoint, per request.', labelNames: INDEXER_LABELS, buckets: [0, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536], registers }),
    ),
    events,
    blocks,
    errors,
    gaps: counter('switchyard_kv_event_gaps_total', 'KV-event sequence gaps detected.'),
    replays: counter('switchyard_kv_event_replays_total', 'KV-event replay requests, by outcome.', ['outcome']),
    resets: counter('switchyard_kv_event_resets_total', 'Endpoints whose cache state became unknown and was cleared, by reason.', ['reason']),
    subscriptions: getOr(registry, 'switchyard_kv_event_subscriptions', () => new Gauge({ name: 'switchyard_kv_event_subscriptions', help: 'Connected KV-event subscriptions.', registers })),
    log,
    error,
    trackPreciseIndex: registerKvCacheIndexCounters(registry),
    kvIndexLookupLatency: getOr(registry, LOOKUP_LATENCY, () => {
      const family = new FastHistogram<never>({ name: LOOKUP_LATENCY, help: 'Duration of one precise prefix index lookup (seconds).', labelNames: [], buckets: PROMETHEUS_DEFAULT_BUCKETS, registers });
      registerDeprecatedTwin(registry, 'kvcache_index_lookup_latency_seconds', family, LOOKUP_LATENCY, []);
      return family;
    }),
    observer: {
      applied(_endpointId, type, n, nBlocks) {
        child(eventsOf, events, type).inc(n);
        if (nBlocks > 0) child(blocksOf, blocks, type).inc(nBlocks);
      },
      problem(cause: KvIngestProblem, endpointId, detail) {
        error(cause, endpointId, detail);
      },
    },
  };
}
