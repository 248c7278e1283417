import type { PoolSaturation } from '@switchyard/core';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Prefix of every flow-control metric (llm-d's names, so dashboards and KEDA triggers carry over). */
const P = 'llm_d_epp_flow_control_';

/**
 * Final queue outcome of a request, with llm-d's `QueueOutcome` names (the `outcome` label).
 * @public
 */
export type QueueOutcome =
  | 'Dispatched'
  | 'RejectedCapacity'
  | 'RejectedNoEndpoints'
  | 'RejectedOther'
  | 'EvictedTTL'
  | 'EvictedContextCancelled'
  | 'EvictedOther';

/**
 * What the metrics read from a controller at scrape time (gauges are computed on demand, so the
 * hot path never touches them).
 * @public
 */
export interface FlowControlMetricsSource {
  /** Calls `fn` for every live flow. */
  forEachFlow(fn: (fairnessId: string, priority: number, size: number, bytes: number) => void): void;
  /** Calls `fn` for every band. */
  forEachBand(fn: (priority: number, queuedRequests: number, maxRequests: number, queuedBytes: number, maxBytes: number) => void): void;
  /** Jain's index per band over the service since the previous call, then starts a new window. */
  takeFairnessIndexes(): ReadonlyMap<number, number>;
  /** Current saturation per stage. */
  stageSaturation(): PoolSaturation;
}

/**
 * Options of {@link FlowControlMetrics}.
 * @public
 */
export interface FlowControlMetricsOptions {
  /** Registry to register on (default: a new one; merge it with `Registry.merge`). */
  readonly registry?: Registry;
  /** Value of the `inference_pool` label (default empty). */
  readonly poolName?: string;
  /** Buckets (seconds) of `request_queue_duration_seconds`. */
  readonly queueDurationBuckets?: readonly number[];
  /** Buckets (seconds) of `dispatch_cycle_duration_seconds`. */
  readonly dispatchCycleBuckets?: readonly number[];
}

interface OutcomeChildren {
  readonly duration: { observe(value: number): void };
  readonly total: { inc(value?: number): void };
}

/**
 * Flow-control metrics with llm-d's names on a prom-client registry. Counters and histograms are
 * recorded as things happen (with per-flow cached label children); gauges are computed when
 * scraped.
 * @public
 */
export class FlowControlMetrics {
  /** The registry the metrics live on. */
  readonly registry: Registry;
  readonly #pool: string;
  readonly #queueDuration: Histogram<'fairness_id' | 'priority' | 'outcome' | 'inference_pool'>;
  readonly #requests: Counter<'outcome' | 'priority' | 'inference_pool'>;
  readonly #cycle: Histogram;
  readonly #revIssued: Counter<'priority'>;
  readonly #revocations: Counter<'priority' | 'outcome'>;
  #source: FlowControlMetricsSource | undefined;

  constructor(options: FlowControlMetricsOptions = {}) {
    this.registry = options.registry ?? new Registry();
    this.#pool = options.poolName ?? '';
    const registers = [this.registry];
    const pool = this.#pool;
    const source = (): FlowControlMetricsSource | undefined => this.#source;

    this.#queueDuration = new Histogram({
      name: `${P}request_queue_duration_seconds`,
      help: 'Time requests spent in the flow-control queue, by final outcome.',
      labelNames: ['fairness_id', 'priority', 'outcome', 'inference_pool'],
      buckets: [...(options.queueDurationBuckets ?? [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300])],
      registers,
    });
    this.#requests = new Counter({
      name: `${P}requests_total`,
      help: 'Requests that went through flow control, by final queue outcome.',
      labelNames: ['outcome', 'priority', 'inference_pool'],
      registers,
    });
    this.#cycle = new Histogram({
      name: `${P}dispatch_cycle_duration_seconds`,
      help: 'Duration of dispatch passes that evaluated the saturation gate.',
      buckets: [...(options.dispatchCycleBuckets ?? [1e-6, 5e-6, 1e-5, 5e-5, 1e-4, 5e-4, 1e-3, 5e-3, 1e-2, 5e-2, 0.1])],
      registers,
    });
    this.#revIssued = new Counter({
      name: `${P}revocations_issued_total`,
      help: 'Dispatched requests revoked by in-flight eviction.',
      labelNames: ['priority'],
      registers,
    });
    this.#revocations = new Counter({
      name: `${P}revocations_total`,
      help: 'Finished revocations: reclaimed (slot released in time) or timed_out (capacity never came back).',
      labelNames: ['priority', 'outcome'],
      registers,
    });
    new Gauge({
      name: `${P}queue_size`,
      help: 'Requests queued, per flow.',
      labelNames: ['fairness_id', 'priority', 'inference_pool'],
      registers,
      collect() {
        this.reset();
        source()?.forEachFlow((f, p, size) => {
          this.set({ fairness_id: f, priority: String(p), inference_pool: pool }, size);
        });
      },
    });
    new Gauge({
      name: `${P}queue_bytes`,
      help: 'Body bytes queued, per flow.',
      labelNames: ['fairness_id', 'priority', 'inference_pool'],
      registers,
      collect() {
        this.reset();
        source()?.forEachFlow((f, p, _s, bytes) => {
          this.set({ fairness_id: f, priority: String(p), inference_pool: pool }, bytes);
        });
      },
    });
    new Gauge({
      name: `${P}pool_saturation`,
      help: 'Pool saturation per disaggregation stage (gate value = max over stages).',
      labelNames: ['stage', 'inference_pool'],
      registers,
      collect() {
        this.reset();
        const s = source()?.stageSaturation();
        if (s === undefined) return;
        if (s.prefill !== undefined) this.set({ stage: 'prefill', inference_pool: pool }, s.prefill);
        this.set({ stage: 'decode', inference_pool: pool }, s.decode ?? s.value);
      },
    });
    const utilization = (name: string, help: string, pick: (r: number, mr: number, b: number, mb: number) => number): void => {
      new Gauge({
        name: `${P}${name}`,
        help,
        labelNames: ['priority', 'inference_pool'],
        registers,
        collect() {
          this.reset();
          source()?.forEachBand((p, r, mr, b, mb) => {
            this.set({ priority: String(p), inference_pool: pool }, pick(r, mr, b, mb));
          });
        },
      });
    };
    utilization('capacity_utilization_requests', 'Queued requests of a band over its maxRequests.', (r, mr) => r / mr);
    utilization('capacity_utilization_bytes', 'Queued bytes of a band over its maxBytes.', (_r, _mr, b, mb) => b / mb);
    new Gauge({
      name: `${P}jains_fairness_index`,
      help: "Jain's fairness index of dispatched tokens across the flows of a band since the previous scrape.",
      labelNames: ['priority', 'inference_pool'],
      registers,
      collect() {
        this.reset();
        for (const [p, j] of source()?.takeFairnessIndexes() ?? []) this.set({ priority: String(p), inference_pool: pool }, j);
      },
    });
  }

  /** Connects the scrape-time gauges to a controller. */
  bind(source: FlowControlMetricsSource): void {
    this.#source = source;
  }

  /** Records a final queue outcome; `cache` is a per-flow object holding bound label children. */
  outcome(cache: Record<string, unknown>, fairnessId: string, priority: number, outcome: QueueOutcome, waitSeconds: number): void {
    let c = cache[outcome] as OutcomeChildren | undefined;
    if (c === undefined) {
      const p = String(priority);
      c = {
        duration: this.#queueDuration.labels({ fairness_id: fairnessId, priority: p, outcome, inference_pool: this.#pool }),
        total: this.#requests.labels({ outcome, priority: p, inference_pool: this.#pool }),
      };
      cache[outcome] = c;
    }
    c.duration.observe(waitSeconds);
    c.total.inc();
  }

  /** Records one dispatch pass. */
  dispatchCycle(seconds: number): void {
    this.#cycle.observe(seconds);
  }

  /** Records a revocation issued against a request of `priority`. */
  revocationIssued(priority: number): void {
    this.#revIssued.inc({ priority: String(priority) });
  }

  /** Records how a revocation ended. */
  revocationFinished(priority: number, outcome: 'reclaimed' | 'timed_out'): void {
    this.#revocations.inc({ priority: String(priority), outcome });
  }
}
