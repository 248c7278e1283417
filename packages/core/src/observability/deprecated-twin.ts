import type { Registry } from 'prom-client';
import type { FastMetricSample, FastMetricValues } from './fast-metric.js';

/** Anything a registry can scrape: prom-client's metrics, the fast metrics, scrape-time gauges. */
interface ScrapedFamily {
  // `type` is prom-client's MetricType enum or a plain string; both hold 'counter', 'gauge', 'histogram'.
  get(): Promise<{ readonly type: unknown; readonly values: readonly { readonly labels: Partial<Record<string, string | number>>; readonly value: number; readonly metricName?: string | undefined }[] }>;
}

/**
 * How a deprecated twin names its labels: each entry is `[twin label, source label]`; source
 * labels left out are summed over (the twin is the coarser view).
 * @internal
 */
export type TwinLabels = readonly (readonly [string, string])[];

/**
 * A family llm-d still emits under a deprecated name next to its `llm_d_epp_*` family
 * (`inference_objective_request_total` next to `llm_d_epp_request_total`, …), with the old label
 * names. It holds no values of its own: each scrape reads the current family, renames the labels
 * the twin keeps and sums the series that differ only in labels it drops. So one record call
 * feeds both names, and the request path pays nothing for the twin.
 */
class DeprecatedTwin {
  readonly name: string;
  readonly help: string;
  readonly #source: ScrapedFamily;
  readonly #sourceName: string;
  readonly #labels: TwinLabels;

  constructor(name: string, help: string, source: ScrapedFamily, sourceName: string, labels: TwinLabels) {
    this.name = name;
    this.help = help;
    this.#source = source;
    this.#sourceName = sourceName;
    this.#labels = labels;
  }

  /** `Registry.resetMetrics()` calls this: the twin holds no values, resetting its source clears it. */
  reset(): void {
    // Nothing of its own to clear.
  }

  async get(): Promise<FastMetricValues> {
    const src = await this.#source.get();
    const merged = new Map<string, { labels: Record<string, string | number>; value: number; metricName: string | undefined }>();
    for (const s of src.values) {
      const labels: Record<string, string | number> = {};
      // Histograms' `le` stays first, as the source writes it.
      const le = s.labels.le;
      if (le !== undefined) labels.le = le;
      for (const [twin, from] of this.#labels) labels[twin] = s.labels[from] ?? '';
      const metricName = s.metricName === undefined ? undefined : this.name + s.metricName.slice(this.#sourceName.length);
      const key = `${metricName ?? ''}\u0001${Object.values(labels).join('\u0000')}`;
      const hit = merged.get(key);
      if (hit === undefined) merged.set(key, { labels, value: s.value, metricName });
      else hit.value += s.value;
    }
    const values: FastMetricSample[] = [...merged.values()].map((m) => (m.metricName === undefined ? { labels: m.labels, value: m.value } : m as FastMetricSample));
    return { name: this.name, help: this.help, type: String(src.type) as FastMetricValues['type'], values, aggregator: 'sum' };
  }
}

/**
 * Registers on `registry` the deprecated twin `name` of the family `source` (registered as
 * `sourceName`): the same samples under llm-d's old name and label names (`labels`, see
 * {@link TwinLabels}), computed when scraped. The help text names the current family, as llm-d's
 * "[Deprecated: Use …]" does.
 * @internal
 */
export function registerDeprecatedTwin(registry: Registry, name: string, source: ScrapedFamily, sourceName: string, labels: TwinLabels): void {
  const twin = new DeprecatedTwin(name, `[Deprecated: Use ${sourceName}] The same samples as ${sourceName}, under its former name.`, source, sourceName, labels);
  // registerMetric is typed for prom-client's classes only; at run time it needs name + get().
  (registry as unknown as { registerMetric(m: unknown): void }).registerMetric(twin);
}

/**
 * `[label, label]` pairs: a twin keeping these source labels under the same names.
 * @internal
 */
export function sameLabels(...names: readonly string[]): TwinLabels {
  return names.map((n) => [n, n] as const);
}
