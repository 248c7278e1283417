import type { Registry } from 'prom-client';

/**
 * Options shared by the fast metrics.
 * @public
 */
export interface FastMetricOptions<TLabel extends string> {
  /** Metric name. */
  readonly name: string;
  /** Help text. */
  readonly help: string;
  /** Label names, in exposition order. */
  readonly labelNames: readonly TLabel[];
  /** Registries to register in. */
  readonly registers: readonly Registry[];
}

/**
 * One exposition sample, in prom-client's JSON shape.
 * @public
 */
export interface FastMetricSample {
  /** Label values. */
  readonly labels: Record<string, string | number>;
  /** Sample value. */
  readonly value: number;
  /** Series name when it differs from the metric's (`_bucket`, `_sum`, `_count`). */
  readonly metricName?: string;
}

/**
 * A fast metric's scrape-time values (prom-client's `MetricObjectWithValues` shape).
 * @public
 */
export interface FastMetricValues {
  /** Metric name. */
  readonly name: string;
  /** Help text. */
  readonly help: string;
  /** Prometheus type. */
  readonly type: string;
  /** Samples. */
  readonly values: FastMetricSample[];
  /** How cluster workers' values combine. */
  readonly aggregator: 'sum';
}

/**
 * What prom-client's `Registry` needs from a metric: a name and a `get()` producing its values at
 * scrape time. (`registerMetric` is typed for prom-client's own classes only.)
 */
interface Collectable {
  readonly name: string;
  get(): Promise<FastMetricValues>;
}

const register = (registers: readonly Registry[], metric: Collectable): void => {
  for (const r of registers) (r as unknown as { registerMetric(m: Collectable): void }).registerMetric(metric);
};

/**
 * Base of the fast metrics: label values are bound once per child (`labels(...)`), so recording
 * a value is a field update with no label validation or hashing (prom-client re-hashes the labels
 * on every call, even on bound children, which costs more than a gateway hop should).
 */
abstract class FastMetric<TLabel extends string, TChild> implements Collectable {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly TLabel[];
  protected readonly children = new Map<string, { labels: Record<string, string>; child: TChild }>();

  constructor(o: FastMetricOptions<TLabel>) {
    this.name = o.name;
    this.help = o.help;
    this.labelNames = o.labelNames;
    register(o.registers, this);
  }

  /** The child for these label values (created on first use; keep it for the hot path). */
  labels(...values: string[]): TChild {
    const key = values.join('\u0000');
    let entry = this.children.get(key);
    if (entry === undefined) {
      const labels: Record<string, string> = {};
      this.labelNames.forEach((n, i) => (labels[n] = values[i] ?? ''));
      entry = { labels, child: this.createChild() };
      this.children.set(key, entry);
    }
    return entry.child;
  }

  protected abstract createChild(): TChild;
  abstract get(): Promise<FastMetricValues>;
}

/** A counter child. @public */
export class FastCounterChild {
  /** Current value. */
  value = 0;
  /** Adds `v` (default 1). */
  inc(v = 1): void {
    this.value += v;
  }
}

/**
 * A Prometheus counter with bound children.
 * @public
 */
export class FastCounter<TLabel extends string> extends FastMetric<TLabel, FastCounterChild> {
  protected createChild(): FastCounterChild {
    return new FastCounterChild();
  }
  /** Scrape-time values (prom-client's JSON shape). */
  get(): Promise<FastMetricValues> {
    const values = [...this.children.values()].map(({ labels, child }) => ({ labels, value: child.value }));
    return Promise.resolve({ name: this.name, help: this.help, type: 'counter', values, aggregator: 'sum' });
  }
}

/** A gauge child. @public */
export class FastGaugeChild {
  /** Current value. */
  value = 0;
  /** Adds 1. */
  inc(): void {
    this.value++;
  }
  /** Subtracts 1. */
  dec(): void {
    this.value--;
  }
  /** Sets the value. */
  set(v: number): void {
    this.value = v;
  }
}

/**
 * A Prometheus gauge with bound children.
 * @public
 */
export class FastGauge<TLabel extends string> extends FastMetric<TLabel, FastGaugeChild> {
  protected createChild(): FastGaugeChild {
    return new FastGaugeChild();
  }
  /** Scrape-time values (prom-client's JSON shape). */
  get(): Promise<FastMetricValues> {
    const values = [...this.children.values()].map(({ labels, child }) => ({ labels, value: child.value }));
    return Promise.resolve({ name: this.name, help: this.help, type: 'gauge', values, aggregator: 'sum' });
  }
}

/** A histogram child. @public */
export class FastHistogramChild {
  /** Observations per bucket (not cumulative); the last slot is +Inf. */
  readonly counts: number[];
  /** Sum of observations. */
  sum = 0;
  /** Number of observations. */
  count = 0;
  readonly #bounds: readonly number[];

  constructor(bounds: readonly number[]) {
    this.#bounds = bounds;
    this.counts = new Array<number>(bounds.length + 1).fill(0);
  }

  /** Records one value. */
  observe(v: number): void {
    const b = this.#bounds;
    let i = 0;
    while (i < b.length && v > (b[i] as number)) i++;
    this.counts[i] = (this.counts[i] ?? 0) + 1;
    this.sum += v;
    this.count++;
  }
}

/**
 * A Prometheus histogram with bound children.
 * @public
 */
export class FastHistogram<TLabel extends string> extends FastMetric<TLabel, FastHistogramChild> {
  readonly #bounds: readonly number[];

  constructor(o: FastMetricOptions<TLabel> & { readonly buckets: readonly number[] }) {
    super(o);
    this.#bounds = [...o.buckets].sort((a, b) => a - b);
  }

  protected createChild(): FastHistogramChild {
    return new FastHistogramChild(this.#bounds);
  }

  /** Scrape-time values (prom-client's JSON shape: cumulative `_bucket`, `_sum`, `_count`). */
  get(): Promise<FastMetricValues> {
    const values: FastMetricSample[] = [];
    for (const { labels, child } of this.children.values()) {
      let cumulative = 0;
      this.#bounds.forEach((le, i) => {
        cumulative += child.counts[i] ?? 0;
        values.push({ labels: { le, ...labels }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { le: '+Inf', ...labels }, value: child.count, metricName: `${this.name}_bucket` });
      values.push({ labels, value: child.sum, metricName: `${this.name}_sum` });
      values.push({ labels, value: child.count, metricName: `${this.name}_count` });
    }
    return Promise.resolve({ name: this.name, help: this.help, type: 'histogram', values, aggregator: 'sum' });
  }
}
