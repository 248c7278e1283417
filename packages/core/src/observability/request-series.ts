import type { FastCounterChild, FastGaugeChild, FastHistogramChild } from './fast-metrics.js';

/**
 * The per-request series of one label combination (model, target model, fairness id,
 * priority), resolved together so a request pays one Map lookup for all of them.
 * @public
 * @category Metrics of our own
 */
export interface RequestSeries {
  /** Label values, in `RequestLabel` order (model_name, target_model_name, fairness_id, priority). */
  readonly labels: readonly [string, string, string, string];
  /** `request_total`. */
  readonly total: FastCounterChild;
  /** `request_running`. */
  readonly running: FastGaugeChild;
  /** `request_duration_seconds`. */
  readonly duration: FastHistogramChild;
  /** `request_input_tokens`. */
  readonly inputTokens: FastHistogramChild;
  /** `request_output_tokens`. */
  readonly outputTokens: FastHistogramChild;
  /** `request_cached_tokens`. */
  readonly cachedTokens: FastHistogramChild;
  /** `request_size_bytes`. */
  readonly requestSize: FastHistogramChild;
  /** `response_size_bytes`. */
  readonly responseSize: FastHistogramChild;
  /** `request_ttft_seconds{streaming="true"}`. */
  readonly ttftStreaming: FastHistogramChild;
  /** `request_ttft_seconds{streaming="false"}`. */
  readonly ttftUnary: FastHistogramChild;
  /** `request_streaming_tpot_seconds`. */
  readonly streamingTpot: FastHistogramChild;
  /** `request_streaming_itl_seconds`. */
  readonly streamingItl: FastHistogramChild;
  /** `request_ntpot_seconds`. */
  readonly ntpot: FastHistogramChild;
}

/**
 * A Map of {@link RequestSeries} by joined label values, bounded: past `max` entries it is
 * cleared (the metrics' own series survive; only this lookup cache restarts), so hostile label
 * values cannot grow it without limit. The metrics themselves cap their series separately.
 * @internal
 */
export class RequestSeriesCache {
  readonly #max: number;
  readonly #map = new Map<string, RequestSeries>();
  readonly #create: (labels: readonly [string, string, string, string], key: string) => RequestSeries;
  #last: RequestSeries | undefined;

  constructor(max: number, create: (labels: readonly [string, string, string, string], key: string) => RequestSeries) {
    this.#max = max;
    this.#create = create;
  }

  /** The series of these label values (created on first use). */
  get(model: string, target: string, fairness: string, priority: string): RequestSeries {
    // Most requests repeat the previous request's labels (one model, one tenant): comparing four
    // short strings is cheaper than building the joined key and hashing it.
    const last = this.#last;
    if (last !== undefined) {
      const l = last.labels;
      if (l[0] === model && l[1] === target && l[2] === fairness && l[3] === priority) return last;
    }
    const key = `${model}\u0000${target}\u0000${fairness}\u0000${priority}`;
    let s = this.#map.get(key);
    if (s === undefined) {
      if (this.#map.size >= this.#max) this.#map.clear();
      s = this.#create([model, target, fairness, priority], key);
      this.#map.set(key, s);
    }
    this.#last = s;
    return s;
  }
}
