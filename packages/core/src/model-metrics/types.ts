/**
 * Metric family type, from a `# TYPE` line (`untyped` when there is none).
 * @public
 * @category Model-server metrics
 */
export type MetricType = 'counter' | 'gauge' | 'histogram' | 'gaugehistogram' | 'summary' | 'info' | 'stateset' | 'untyped' | 'unknown';

/**
 * One sample line: `name{labels} value [timestamp]`.
 * @public
 * @category Model-server metrics
 */
export interface Sample {
  /** Sample name as written (e.g. `vllm:e2e_request_latency_seconds_bucket`). */
  readonly name: string;
  /** Label values by label name (escapes resolved). */
  readonly labels: Readonly<Record<string, string>>;
  /** Value; `NaN`, `+Inf` and `-Inf` are represented as the matching numbers. */
  readonly value: number;
  /** Sample timestamp in epoch milliseconds, when the line has one. */
  readonly timestampMs: number | undefined;
}

/**
 * A metric family: a name, its type and help, and its samples (for histograms and summaries the
 * `_bucket`, `_sum`, `_count` samples; for counters also `_total`/`_created`).
 * @public
 * @category Model-server metrics
 */
export interface MetricFamily {
  /** Family name (the `# TYPE` name, or the sample name for undeclared samples). */
  readonly name: string;
  /** Declared type. */
  readonly type: MetricType;
  /** `# HELP` text (escapes resolved), when given. */
  readonly help: string | undefined;
  /** Samples in exposition order. */
  readonly samples: readonly Sample[];
}

/**
 * Everything {@link parsePrometheusExposition} found.
 * @public
 * @category Model-server metrics
 */
export interface PrometheusParseResult {
  /** Families in order of first appearance. */
  readonly families: MetricFamily[];
  /** Number of lines that could not be parsed and were skipped. */
  readonly invalidLines: number;
  /** 1-based number of the first skipped line, for diagnostics. */
  readonly firstInvalidLine: number | undefined;
}

/**
 * Options of {@link parsePrometheusExposition}.
 * @public
 * @category Model-server metrics
 */
export interface PrometheusParseOptions {
  /**
   * Keep only families whose name passes. Lines of other families are skipped without parsing
   * their labels (and without being validated), which makes scraping a large `/metrics` page for
   * a handful of gauges several times cheaper.
   */
  readonly filter?: (familyName: string) => boolean;
  /**
   * With `filter`: groups of family names; stop reading once every group has a family with
   * samples and a family the filter turns down begins (an exposition keeps each family's samples
   * together), so the rest of a large page is not even split into lines. A group absent from the
   * page just means no early stop.
   */
  readonly until?: Iterable<readonly string[]>;
}
