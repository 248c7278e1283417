import { z } from 'zod';
import { durationSchema } from '../../config/duration.js';
import { MIN_SCRAPE_INTERVAL_MS } from '../../model-metrics/scraper.js';
import { definePlugin } from '../../registry/types.js';
import type { Plugin } from '../../scheduling/plugins.js';

/**
 * Type of llm-d's Prometheus scrape source. @public
 * @category Built-in plugins
 */
export const METRICS_DATA_SOURCE = 'metrics-data-source';

const unsetWhenEmpty = z.string().optional().transform((v) => (v === '' ? undefined : v));

/**
 * Parameters of `metrics-data-source`, with llm-d's names and defaults (scheme `http`, path
 * `/metrics`, `insecureSkipVerify` true). `interval` is a duration (`"1s"`, or a number of seconds).
 * @public
 * @category Built-in plugins
 */
export const metricsDataSourceParameters = z.strictObject({
  scheme: z.enum(['http', 'https']).default('http'),
  path: z.string().startsWith('/').default('/metrics'),
  port: z.number().int().min(0).max(65535).default(0),
  insecureSkipVerify: z.boolean().default(true),
  // llm-d's empty string means "not set", as an absent field does.
  caCertPath: unsetWhenEmpty,
  clientCertPath: unsetWhenEmpty,
  clientKeyPath: unsetWhenEmpty,
  interval: z.union([z.literal(''), durationSchema]).optional(),
}).refine((p) => (p.clientCertPath === undefined) === (p.clientKeyPath === undefined), { error: 'clientCertPath and clientKeyPath must be set together', path: ['clientKeyPath'] });

/**
 * Parsed `metrics-data-source` parameters. @public
 * @category Built-in plugins
 */
export type MetricsDataSourceParams = z.output<typeof metricsDataSourceParameters>;

/**
 * Effective scrape settings of one metrics source, ready for `MetricsScraper`.
 * @public
 * @category Built-in plugins
 */
export interface MetricsSourceSettings {
  /** `http` or `https`. */
  readonly scheme: 'http' | 'https';
  /** Metrics path, e.g. `/metrics`. */
  readonly path: string;
  /** Port overriding each endpoint's port (undefined: the endpoint's own port). */
  readonly port: number | undefined;
  /** Skip TLS verification for `https`. */
  readonly insecureSkipVerify: boolean;
  /** PEM CA bundle path for `https`. */
  readonly caCertPath: string | undefined;
  /** Client certificate path for mTLS. */
  readonly clientCertPath: string | undefined;
  /** Client key path for mTLS. */
  readonly clientKeyPath: string | undefined;
  /** Scrape period in ms, rounded to a multiple of the 50 ms base tick (undefined: every tick). */
  readonly intervalMs: number | undefined;
}

/**
 * A configured metrics data source: it carries settings only; an adapter builds the
 * `MetricsScraper` from `LoadedConfig.dataLayerSettings`.
 * @public
 * @category Built-in plugins
 */
export interface MetricsDataSource extends Plugin {
  /** The effective scrape settings. */
  readonly settings: MetricsSourceSettings;
}

/**
 * The settings a parameters object stands for. The interval is rounded to the nearest multiple
 * of the 50 ms base tick (never below it), as llm-d rounds to `--refresh-metrics-interval`.
 * @public
 */
export function metricsSourceSettings(p: MetricsDataSourceParams): MetricsSourceSettings {
  const ms = p.interval === undefined || p.interval === '' ? undefined : p.interval;
  return {
    scheme: p.scheme,
    path: p.path,
    port: p.port > 0 ? p.port : undefined,
    insecureSkipVerify: p.insecureSkipVerify,
    caCertPath: p.caCertPath,
    clientCertPath: p.clientCertPath,
    clientKeyPath: p.clientKeyPath,
    intervalMs: ms === undefined ? undefined : Math.max(MIN_SCRAPE_INTERVAL_MS, Math.round(ms / MIN_SCRAPE_INTERVAL_MS) * MIN_SCRAPE_INTERVAL_MS),
  };
}

/**
 * True when `p` is a {@link MetricsDataSource}. @public
 * @category Built-in plugins
 */
export function isMetricsDataSource(p: Plugin): p is MetricsDataSource {
  return p.type === METRICS_DATA_SOURCE && typeof (p as Partial<MetricsDataSource>).settings === 'object';
}

/**
 * `metrics-data-source`: llm-d's data-layer source that scrapes each endpoint's Prometheus
 * metrics. Listed in `plugins` and referenced from `dataLayer.sources[].pluginRef`.
 * @public
 * @category Built-in plugins
 */
export const metricsDataSourcePlugin = definePlugin({
  type: METRICS_DATA_SOURCE,
  description: 'Data-layer source: scrape settings for the model servers\' Prometheus metrics.',
  parameters: metricsDataSourceParameters,
  create: (p, ctx): MetricsDataSource => ({ type: METRICS_DATA_SOURCE, name: ctx.name, settings: metricsSourceSettings(p) }),
});
