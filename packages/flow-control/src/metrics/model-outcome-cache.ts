import type { SeriesHistogramChild } from './series-histogram.js';

/** The queue-duration series of one (model, target model) pair of a flow, indexed like `QUEUE_OUTCOMES`. */
class PairSeries {
  readonly slots: (SeriesHistogramChild | undefined)[] = [];

  constructor(
    readonly model: string,
    readonly target: string,
  ) {}
}

/**
 * A flow's `request_queue_duration_seconds` series, by the requests' model pair and outcome. A
 * flow nearly always serves one pair: that one is found with two string comparisons on plain
 * fields (read inline by `FlowControlMetrics.outcome`); further pairs (several models sharing a
 * fairness id) go through a map keyed by the pair. The pairs also give the queue gauges their
 * series at 0 once a pair's requests have left the queue.
 * @public
 * @category Metrics
 */
export class ModelOutcomeCache {
  /** Model of the first pair seen (undefined before any). */
  model: string | undefined = undefined;
  /** Target model of the first pair seen. */
  target: string | undefined = undefined;
  /** Series slots of the first pair. */
  readonly slots: (SeriesHistogramChild | undefined)[] = [];
  #others: Map<string, PairSeries> | undefined;

  /** The series slots of `model` → `target` when it is not the first pair (created on first use). */
  slotsOf(model: string, target: string): (SeriesHistogramChild | undefined)[] {
    if (this.model === undefined) {
      this.model = model;
      this.target = target;
      return this.slots;
    }
    if (this.model === model && this.target === target) return this.slots;
    const key = `${model}\u0000${target}`;
    const others = (this.#others ??= new Map<string, PairSeries>());
    let pair = others.get(key);
    if (pair === undefined) others.set(key, (pair = new PairSeries(model, target)));
    return pair.slots;
  }

  /** Calls `fn` for every model pair seen. */
  forEachPair(fn: (model: string, target: string) => void): void {
    if (this.model !== undefined) fn(this.model, this.target ?? '');
    for (const p of this.#others?.values() ?? []) fn(p.model, p.target);
  }
}
