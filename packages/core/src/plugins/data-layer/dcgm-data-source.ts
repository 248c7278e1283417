import { z } from 'zod';
import type { Clock } from '../../clock/clock.js';
import { joinHostPort } from '../../endpoints/address.js';
import type { EndpointPool } from '../../endpoints/pool.js';
import type { MetricsFetcher } from '../../model-metrics/http-fetcher.js';
import { durationSchema } from '../../config/duration.js';
import { definePlugin } from '../../registry/types.js';
import type { Plugin } from '../../scheduling/plugins.js';
import { isDcgmExtractor } from './dcgm-extractor.js';
import { PolledPageSourceImpl, type PolledPageSource } from './page-poller.js';

/**
 * Type of llm-d's NVIDIA DCGM exporter source. @public
 * @category Built-in plugins
 */
export const DCGM_DATA_SOURCE = 'dcgm-data-source';

/**
 * Parameters of `dcgm-data-source`, with llm-d's names and defaults: the DCGM exporter's port
 * 9400 and `/metrics` on each endpoint's host, polled every `interval` (default: the 50 ms base
 * tick, as llm-d's `--refresh-metrics-interval`).
 * @public
 * @category Built-in plugins
 */
export const dcgmDataSourceParameters = z
  .strictObject({
    scheme: z.enum(['http', 'https']).default('http'),
    path: z.string().startsWith('/').default('/metrics'),
    port: z.number().int().min(1).max(65535).default(9400),
    insecureSkipVerify: z.boolean().default(true),
    interval: z.union([z.literal(''), durationSchema]).optional(),
  })
  .prefault({});

/**
 * A `dcgm-data-source` instance: it polls every endpoint's DCGM exporter and hands each page to
 * the `dcgm-extractor` instances wired to it in `dataLayer.sources`.
 * @public
 * @category Built-in plugins
 */
export type DcgmDataSource = PolledPageSource;

/**
 * True when `p` is a {@link DcgmDataSource}. @public
 * @category Built-in plugins
 */
export function isDcgmDataSource(p: Plugin): p is DcgmDataSource {
  return p.type === DCGM_DATA_SOURCE && typeof (p as Partial<DcgmDataSource>).attachExtractors === 'function';
}

type Params = z.output<typeof dcgmDataSourceParameters>;

function newDcgmSource(name: string, params: Params, pool: EndpointPool, clock: Clock, fetch?: MetricsFetcher): DcgmDataSource {
  return new PolledPageSourceImpl({
    type: DCGM_DATA_SOURCE,
    name,
    pool,
    clock,
    interval: params.interval,
    urlOf: (e) => `${params.scheme}://${joinHostPort(e.ip, params.port)}${params.path}`,
    http: { tls: { rejectUnauthorized: !params.insecureSkipVerify } },
    fetch,
    feeds: isDcgmExtractor,
  });
}

/**
 * Creates a DCGM source directly (the plugin definition calls it; tests pass their own fetcher).
 * @public
 * @category Built-in plugins
 */
export function createDcgmDataSource(name: string, params: z.input<typeof dcgmDataSourceParameters>, deps: { pool: EndpointPool; clock: Clock; fetch?: MetricsFetcher }): DcgmDataSource {
  return newDcgmSource(name, dcgmDataSourceParameters.parse(params), deps.pool, deps.clock, deps.fetch);
}

/**
 * `dcgm-data-source` (llm-d, alpha): scrapes the NVIDIA DCGM exporter (`:9400/metrics`) of every
 * endpoint's host for `dcgm-extractor`. `useNodeAddress` is accepted and not acted on: Switchyard
 * endpoints carry no node address, so the endpoint's own host is scraped.
 * @public
 * @category Built-in plugins
 */
export const dcgmDataSourcePlugin = definePlugin({
  type: DCGM_DATA_SOURCE,
  description: 'Data-layer source: polls each endpoint host\'s NVIDIA DCGM exporter for dcgm-extractor.',
  parameters: dcgmDataSourceParameters,
  notActedOn: { useNodeAddress: 'endpoints carry no node address; the endpoint\'s own host is scraped' },
  create: (p, ctx): DcgmDataSource => newDcgmSource(ctx.name, p, ctx.pool, ctx.clock),
});
