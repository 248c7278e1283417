import type { PoolSaturation } from '@switchyard/core';
import { registerDeprecatedTwin, sameLabels } from '@switchyard/core/internal';
import { Counter, Gauge, Histogram, Registry, type MetricObjectWithValues, type MetricValue } from 'prom-client';
import { SeriesHistogram, type SeriesHistogramChild } from './series-histogram.js';
import type { ModelOutcomeCache } from './model-outcome-cache.js';

/** Prefix of every flow-control metric (llm-d's names, so dashboards and KEDA triggers carry over). */
const P = 'llm_d_epp_flow_control_';

/**
 * Every final queue outcome, with llm-d's `QueueOutcome` names (the `outcome` label).
 * @public
 * @category Metrics
 */
export const QUEUE_OUTCOMES = [
  'Dispatched',
  'RejectedCapacity',
  'RejectedNoEndpoints',
  'RejectedOther',
  'EvictedTTL',
  'EvictedContextCancelled',
  'EvictedOther',
] as const;

/**
 * Final queue outcome of a request (see {@link QUEUE_OUTCOMES}).
 * @public
 * @category Metrics
 */
export type QueueOutcome = (typeof QUEUE_OUTCOMES)[number];

/**
 * Per-flow slots for the series of each outcome, indexed like {@link QUEUE_OUTCOMES}; a flow keeps
 * one so recording an outcome is an array read.
 * @public
 * @category Metrics
 */
export type OutcomeSeriesCache = (SeriesHistogramChild | undefined)[];

const OUTCOME_INDEX: Readonly<Record<QueueOutcome, number>> = Object.fromEntries(QUEUE_OUTCOMES.map((o, i) => [o, i])) as Record<QueueOutcome, number>;

/**
 * How a request was handed to the queue (`request_enqueue_duration_seconds`' `outcome` label, as
 * llm-d): `NotYetFinalized` when it was queued, else the final outcome it got at once (`Dispatched`
 * when it passed straight through, a rejection when it was refused).
 * @public
 * @category Metrics
 */
export type EnqueueOutcome = QueueOutcome | 'NotYetFinalized';

/** Slot of `NotYetFinalized` in an enqueue-series cache (after the final outcomes). */
const NOT_YET_FINALIZED = QUEUE_OUTCOMES.length;

/**
 * What the metrics read from a controller at scrape time (gauges are computed on demand, so the
 * hot path never touches them).
 * @public
 * @category Metrics
 */
export interface FlowControlMetricsSource {
  /** Calls `fn` for every live flow. */
  forEachFlow(fn: (fairnessId: string, priority: number, size: number, bytes: number) => void): void;
  /**
   * Calls `fn` per live flow and model pair of its requests (`model_name` as the client sent it,
   * `target_model_name` after rewrites), with the requests and bytes of that pair queued now (0
   * for a pair whose requests have all left). Without it the queue gauges carry empty model labels.
   */
  forEachFlowModel?(fn: (fairnessId: string, priority: number, model: string, target: string, size: number, bytes: number) => void): void;
  /** Calls `fn` for every band. */
  forEachBand(fn: (priority: number, queuedRequests: number, maxRequests: number, queuedBytes: number, maxBytes: number) => void): void;
  /** Jain's index per band over the service since the previous call, then starts a new window. */
  takeFairnessIndexes(): ReadonlyMap<number, number>;
  /** Current saturation per stage. */
  stageSaturation(): PoolSaturation;
  /** Queued totals against the global limits (a limit of 0 is not configured). */
  globalCapacity?(): { readonly requests: number; readonly maxRequests: number; readonly bytes: number; readonly maxBytes: number };
}

/**
 * Options of {@link FlowControlMetrics}.
 * @public
 * @category Metrics
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

/** Most distinct values of a model label, as llm-d's limiter; later ones are counted as `other`. */
const MAX_MODEL_LABELS = 1000;

/** `requests_total`, derived at scrape time from the queue-duration series (same events, no second hot-path write). */
class DerivedCounter extends Counter {
  readonly #name: string;
  readonly #help: string;
  readonly #values: () => MetricValue<string>[];

  constructor(name: string, help: string, labelNames: readonly string[], registers: readonly Registry[], values: () => MetricValue<string>[]) {
    super({ name, help, labelNames: [...labelNames], registers: [...registers] });
    this.#name = name;
    this.#help = help;
    this.#values = values;
  }

  override get(): Promise<MetricObjectWithValues<MetricValue<string>>> {
    const metric = { name: this.#name, help: this.#help, type: 'counter', values: this.#values(), aggregator: 'sum' };
    return Promise.resolve(metric as unknown as MetricObjectWithValues<MetricValue<string>>);
  }
}

/**
 * Flow-control metrics with llm-d's names on a prom-client registry. The queue-duration histogram
 * and the dispatch-cycle histogram record into series objects each flow keeps (no label hashing on
 * the hot path); `requests_total` is derived from the queue-duration series and the gauges are
 * computed when scraped.
 * @public
 * @category Metrics
 */
export class FlowControlMetrics {
  /** The registry the metrics live on. */
  readonly registry: Registry;
  readonly #pool: string;
  readonly #queueDuration: SeriesHistogram;
  readonly #cycle: SeriesHistogramChild;
  readonly #enqueueDuration: SeriesHistogram;
  readonly #revIssued: Counter<'priority' | 'inference_pool'>;
  readonly #revocations: Counter<'outcome' | 'inference_pool'>;
  /** The pool's series of the reclaim families, resolved once (set on every blocked dispatch pass). */
  readonly #reclaimTarget: Gauge.Internal<'inference_pool'>;
  readonly #pendingReclaim: Gauge.Internal<'inference_pool'>;
  readonly #confirmation: Histogram.Internal<'inference_pool'>;
  /** Model label values admitted so far (at most {@link MAX_MODEL_LABELS}). */
  readonly #models = new Set<string>();
  #source: FlowControlMetricsSource | undefined;

  constructor(options: FlowControlMetricsOptions = {}) {
    this.registry = options.registry ?? new Registry();
    this.#pool = options.poolName ?? '';
    const registers = [this.registry];
    const pool = this.#pool;
    const source = (): FlowControlMetricsSource | undefined => this.#source;

    const queueDuration = new SeriesHistogram({
      name: `${P}request_queue_duration_seconds`,
      help: 'Time requests spent in the flow-control queue, by final outcome.',
      labelNames: ['fairness_id', 'priority', 'outcome', 'inference_pool', 'model_name', 'target_model_name'],
      // llm-d's boundaries, so dashboards' quantiles read the same.
      buckets: options.queueDurationBuckets ?? [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    });
    this.#queueDuration = queueDuration;
    new DerivedCounter(`${P}requests_total`, 'Requests that went through flow control, by final queue outcome.', ['outcome', 'priority', 'inference_pool'], registers, () => {
      const totals = new Map<string, MetricValue<string>>();
      for (const s of queueDuration.allSeries()) {
        const key = `${s.labels.outcome ?? ''}\u0000${s.labels.priority ?? ''}`;
        const t = totals.get(key);
        if (t === undefined) totals.set(key, { labels: { outcome: s.labels.outcome, priority: s.labels.priority, inference_pool: pool }, value: s.count });
        else t.value += s.count;
      }
      return [...totals.values()];
    });
    const cycle = new SeriesHistogram({
      name: `${P}dispatch_cycle_duration_seconds`,
      help: 'Duration of dispatch passes that evaluated the saturation gate.',
      labelNames: [],
      buckets: options.dispatchCycleBuckets ?? [0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1],
      registers,
    });
    this.#cycle = cycle.series({});
    this.#enqueueDuration = new SeriesHistogram({
      name: `${P}request_enqueue_duration_seconds`,
      help: 'Time to hand a request to the flow-control queue, by how it was handed (NotYetFinalized: queued; else its immediate final outcome).',
      labelNames: ['fairness_id', 'priority', 'outcome'],
      buckets: options.dispatchCycleBuckets ?? [0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1],
      registers,
    });
    this.#revIssued = new Counter({
      name: `${P}revocations_issued_total`,
      help: 'Dispatched requests revoked by in-flight eviction, by the priority of the band they were revoked for.',
      labelNames: ['priority', 'inference_pool'],
      registers,
    });
    this.#revocations = new Counter({
      name: `${P}revocations_total`,
      help: 'Finished revocations: confirmed (the evicted request released its slot in time) or timed_out (capacity never came back).',
      labelNames: ['outcome', 'inference_pool'],
      registers,
    });
    this.#reclaimTarget = new Gauge<'inference_pool'>({
      name: `${P}reclaim_target`,
      help: 'Saturation minus the blocked band\'s ceiling when eviction last acted: the capacity asked back, in saturation units.',
      labelNames: ['inference_pool'],
      registers,
    }).labels(pool);
    this.#pendingReclaim = new Gauge<'inference_pool'>({
      name: `${P}pending_reclaim`,
      help: 'Revocations issued whose request has not ended yet (awaiting confirmation or the reclaim timeout).',
      labelNames: ['inference_pool'],
      registers,
    }).labels(pool);
    // Present (at 0) before eviction ever acts, as llm-d's gauges are.
    this.#reclaimTarget.set(0);
    this.#pendingReclaim.set(0);
    this.#confirmation = new Histogram<'inference_pool'>({
      name: `${P}revocation_confirmation_seconds`,
      help: 'Time from a revocation to its request actually ending (confirmed revocations only).',
      labelNames: ['inference_pool'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }).labels(pool);
    const modelLabel = (m: string): string => this.modelLabel(m);
    // Computed when scraped: per flow and model pair (llm-d labels each queued item with its models).
    const queueGauge = (name: string, help: string, pick: (size: number, bytes: number) => number): Gauge =>
      new Gauge({
        name: `${P}${name}`,
        help,
        labelNames: ['fairness_id', 'priority', 'inference_pool', 'model_name', 'target_model_name'],
        registers,
        collect() {
          this.reset();
          const s = source();
          if (s === undefined) return;
          const set = (f: string, p: number, m: string, t: string, size: number, bytes: number): void => {
            this.inc({ fairness_id: f, priority: String(p), inference_pool: pool, model_name: modelLabel(m), target_model_name: modelLabel(t) }, pick(size, bytes));
          };
          if (s.forEachFlowModel !== undefined) s.forEachFlowModel(set);
          else s.forEachFlow((f, p, size, bytes) => { set(f, p, '', '', size, bytes); });
        },
      });
    const queueSize = queueGauge('queue_size', 'Requests queued, per flow and model pair.', (size) => size);
    const queueBytes = queueGauge('queue_bytes', 'Body bytes queued, per flow and model pair.', (_size, bytes) => bytes);
    const saturation = new Gauge({
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
    // llm-d still emits these under their former inference_extension_flow_control_* names; the
    // twins are computed from the families above at scrape time (one record call feeds both).
    const flowLabels = sameLabels('fairness_id', 'priority', 'inference_pool', 'model_name', 'target_model_name');
    const twins = [
      [queueDuration, sameLabels('fairness_id', 'priority', 'outcome', 'inference_pool', 'model_name', 'target_model_name')],
      [cycle, []],
      [this.#enqueueDuration, sameLabels('fairness_id', 'priority', 'outcome')],
      [queueSize, flowLabels],
      [queueBytes, flowLabels],
      [saturation, sameLabels('inference_pool', 'stage')],
    ] as const;
    for (const [family, labels] of twins) {
      const name = (family as unknown as { name: string }).name;
      registerDeprecatedTwin(this.registry, name.replace(/^llm_d_epp_/, 'inference_extension_'), family, name, labels);
    }
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
    // Only when the global limit is configured, as llm-d.
    const global = (name: string, help: string, pick: (g: ReturnType<NonNullable<FlowControlMetricsSource['globalCapacity']>>) => number | undefined): void => {
      new Gauge({
        name: `${P}${name}`,
        help,
        labelNames: ['inference_pool'],
        registers,
        collect() {
          this.reset();
          const g = source()?.globalCapacity?.();
          const v = g === undefined ? undefined : pick(g);
          if (v !== undefined) this.set({ inference_pool: pool }, v);
        },
      });
    };
    global('global_capacity_utilization_requests', 'Queued requests over the global maxRequests (only when it is set).', (g) => (g.maxRequests > 0 ? g.requests / g.maxRequests : undefined));
    global('global_capacity_utilization_bytes', 'Queued bytes over the global maxBytes (only when it is set).', (g) => (g.maxBytes > 0 ? g.bytes / g.maxBytes : undefined));
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

  /**
   * Records a final queue outcome of a request for `model` (as the client sent it) and `target`
   * (after rewrites); `cache` is the flow's {@link ModelOutcomeCache}, so a repeat costs two
   * string comparisons and an array read.
   */
  outcome(cache: ModelOutcomeCache, fairnessId: string, priority: number, outcome: QueueOutcome, waitSeconds: number, model: string, target: string): void {
    const i = OUTCOME_INDEX[outcome];
    const slots = cache.model === model && cache.target === target ? cache.slots : cache.slotsOf(model, target);
    let series = slots[i];
    if (series === undefined) {
      series = this.#queueDuration.series({ fairness_id: fairnessId, priority: String(priority), outcome, inference_pool: this.#pool, model_name: this.modelLabel(model), target_model_name: this.modelLabel(target) });
      slots[i] = series;
    }
    series.observe(waitSeconds);
  }

  /** The label value of a model name: itself for the first 1,000 distinct names, then `other` (llm-d's limiter). */
  modelLabel(model: string): string {
    const seen = this.#models;
    if (seen.has(model)) return model;
    if (seen.size >= MAX_MODEL_LABELS) return 'other';
    seen.add(model);
    return model;
  }

  /**
   * Records how long handing a request to the queue took and how it went; `cache` is the flow's
   * enqueue-series cache (an empty array for a request refused before it had a flow).
   */
  enqueued(cache: OutcomeSeriesCache, fairnessId: string, priority: number, outcome: EnqueueOutcome, seconds: number): void {
    const i = outcome === 'NotYetFinalized' ? NOT_YET_FINALIZED : OUTCOME_INDEX[outcome];
    let series = cache[i];
    if (series === undefined) {
      series = this.#enqueueDuration.series({ fairness_id: fairnessId, priority: String(priority), outcome });
      cache[i] = series;
    }
    series.observe(seconds);
  }

  /** Records one dispatch pass. */
  dispatchCycle(seconds: number): void {
    this.#cycle.observe(seconds);
  }

  /** Records a revocation issued against a request of `priority`. */
  revocationIssued(priority: number): void {
    this.#revIssued.inc({ priority: String(priority), inference_pool: this.#pool });
  }

  /** Records the capacity eviction was asked to reclaim (saturation − the blocked band's ceiling). */
  reclaimTarget(deficit: number): void {
    this.#reclaimTarget.set(deficit);
  }

  /** Records how many revocations await their request's end. */
  pendingReclaim(pending: number): void {
    this.#pendingReclaim.set(pending);
  }

  /** Records the time from a revocation to its request ending. */
  revocationConfirmed(seconds: number): void {
    this.#confirmation.observe(seconds);
  }

  /** Records how a revocation ended (llm-d labels the outcome by pool only). */
  revocationFinished(outcome: 'confirmed' | 'timed_out'): void {
    this.#revocations.inc({ outcome, inference_pool: this.#pool });
  }
}
