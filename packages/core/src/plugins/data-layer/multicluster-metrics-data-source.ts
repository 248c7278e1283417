import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Clock } from '../../clock/clock.js';
import { durationSchema } from '../../config/duration.js';
import { joinHostPort } from '../../endpoints/address.js';
import type { EndpointPool } from '../../endpoints/pool.js';
import { SwitchyardError } from '../../errors/switchyard-error.js';
import type { MetricsFetcher, MetricsTlsOptions } from '../../model-metrics/http-fetcher.js';
import { definePlugin } from '../../registry/types.js';
import type { Plugin } from '../../scheduling/plugins.js';
import { isMulticlusterMetricsExtractor } from './multicluster-metrics-extractor.js';
import { PolledPageSourceImpl, type PolledPageSource } from './page-poller.js';

/**
 * Type of llm-d's source that scrapes remote clusters' EPP metrics. @public
 * @category Built-in plugins
 */
export const MULTICLUSTER_METRICS_DATA_SOURCE = 'multicluster-metrics-data-source';

/** Largest remote page accepted (llm-d's cap). */
const MAX_PAGE_BYTES = 8 * 1024 * 1024;

const unsetWhenEmpty = z.string().optional().transform((v) => (v === '' ? undefined : v));

/**
 * Parameters of `multicluster-metrics-data-source`: `metrics-data-source`'s keys with llm-d's
 * defaults for remote clusters (`https`, `/metrics`, certificates verified). `port` is accepted and
 * ignored, as llm-d ignores it: a cluster's scrape port is its endpoint's (or its `metricsPort` label).
 * @public
 * @category Built-in plugins
 */
export const multiclusterMetricsDataSourceParameters = z
  .strictObject({
    scheme: z.enum(['http', 'https']).default('https'),
    path: z.string().startsWith('/').default('/metrics'),
    port: z.number().int().min(0).max(65535).optional(),
    insecureSkipVerify: z.boolean().default(false),
    caCertPath: unsetWhenEmpty,
    clientCertPath: unsetWhenEmpty,
    clientKeyPath: unsetWhenEmpty,
    interval: z.union([z.literal(''), durationSchema]).optional(),
  })
  .refine((p) => (p.clientCertPath === undefined) === (p.clientKeyPath === undefined), { error: 'clientCertPath and clientKeyPath must be set together', path: ['clientKeyPath'] })
  .prefault({});

type Params = z.output<typeof multiclusterMetricsDataSourceParameters>;

/**
 * A `multicluster-metrics-data-source` instance: it polls every cluster endpoint's metrics page
 * (a remote EPP; its URL from the endpoint's `metricsHost`, else its host, and `metricsPort`) and
 * hands each page to the `multicluster-metrics-extractor` instances wired to it.
 * @public
 * @category Built-in plugins
 */
export type MulticlusterMetricsDataSource = PolledPageSource;

/**
 * True when `p` is a {@link MulticlusterMetricsDataSource}. @public
 * @category Built-in plugins
 */
export function isMulticlusterMetricsDataSource(p: Plugin): p is MulticlusterMetricsDataSource {
  return p.type === MULTICLUSTER_METRICS_DATA_SOURCE && typeof (p as Partial<MulticlusterMetricsDataSource>).attachExtractors === 'function';
}

/** The TLS files of the parameters, read now; a missing file is a config error naming the field. */
function tlsOf(name: string, p: Params): MetricsTlsOptions {
  const read = (field: string, path: string | undefined): Buffer | undefined => {
    if (path === undefined) return undefined;
    try {
      return readFileSync(path);
    } catch (err) {
      throw new SwitchyardError('CONFIG_INVALID', `${MULTICLUSTER_METRICS_DATA_SOURCE} "${name}": ${field} "${path}" cannot be read: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
  };
  const ca = read('caCertPath', p.caCertPath);
  const cert = read('clientCertPath', p.clientCertPath);
  const key = read('clientKeyPath', p.clientKeyPath);
  return { rejectUnauthorized: !p.insecureSkipVerify, ...(ca === undefined ? {} : { ca }), ...(cert === undefined ? {} : { cert }), ...(key === undefined ? {} : { key }) };
}

function newClusterMetricsSource(name: string, params: Params, pool: EndpointPool, clock: Clock, fetch?: MetricsFetcher): MulticlusterMetricsDataSource {
  return new PolledPageSourceImpl({
    type: MULTICLUSTER_METRICS_DATA_SOURCE,
    name,
    pool,
    clock,
    interval: params.interval,
    urlOf: (e) => `${params.scheme}://${joinHostPort(e.metricsHost ?? e.ip, e.metricsPort)}${params.path}`,
    http: { maxBytes: MAX_PAGE_BYTES, ...(params.scheme === 'https' ? { tls: tlsOf(name, params) } : {}) },
    fetch,
    feeds: isMulticlusterMetricsExtractor,
  });
}

/**
 * Creates a multicluster metrics source directly (the plugin definition calls it; tests pass
 * their own fetcher).
 * @public
 * @category Built-in plugins
 */
export function createMulticlusterMetricsDataSource(
  name: string,
  params: z.input<typeof multiclusterMetricsDataSourceParameters>,
  deps: { pool: EndpointPool; clock: Clock; fetch?: MetricsFetcher },
): MulticlusterMetricsDataSource {
  return newClusterMetricsSource(name, multiclusterMetricsDataSourceParameters.parse(params), deps.pool, deps.clock, deps.fetch);
}

/**
 * `multicluster-metrics-data-source` (llm-d, alpha): scrapes each cluster endpoint's metrics
 * page — a remote EPP's `/metrics`, at the endpoint's `metricsAddress` / `metricsPort` when
 * `multicluster-file-discovery` gave them — for `multicluster-metrics-extractor`. Pages above
 * 8 MiB are refused.
 * @public
 * @category Built-in plugins
 */
export const multiclusterMetricsDataSourcePlugin = definePlugin({
  type: MULTICLUSTER_METRICS_DATA_SOURCE,
  description: 'Data-layer source: polls each cluster endpoint\'s remote EPP metrics for multicluster-metrics-extractor.',
  parameters: multiclusterMetricsDataSourceParameters,
  create: (p, ctx): MulticlusterMetricsDataSource => newClusterMetricsSource(ctx.name, p, ctx.pool, ctx.clock),
});
