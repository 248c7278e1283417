import { definePlugin } from '../../registry/types.js';
import { endpointSpecOf, type DiscoveredEndpoint, type FileEndpoint } from './endpoints-file.js';
import { createFileDiscovery, fileDiscoveryParameters, type FileDiscovery } from './file-discovery.js';

/**
 * Type of llm-d's cross-cluster file discovery. @public
 * @category Built-in plugins
 */
export const MULTICLUSTER_FILE_DISCOVERY = 'multicluster-file-discovery';

/**
 * Endpoint label overriding the metrics scrape port of a cluster endpoint (llm-d's). @public
 * @category Built-in plugins
 */
export const METRICS_PORT_LABEL = 'metricsPort';

/**
 * Endpoint label naming another host (name or IP) to scrape a cluster endpoint's metrics from
 * (llm-d's). @public
 * @category Built-in plugins
 */
export const METRICS_ADDRESS_LABEL = 'metricsAddress';

/**
 * The pool entry of a cluster endpoint: as `file-discovery`'s, with the `metricsAddress` label
 * as the scrape host and the `metricsPort` label as the scrape port, each defaulting to the
 * endpoint's own (a bad port or a blank address is ignored).
 * @public
 * @category Built-in plugins
 */
export function clusterEndpointSpecOf(e: FileEndpoint): DiscoveredEndpoint {
  const spec = endpointSpecOf(e);
  const label = e.labels[METRICS_PORT_LABEL];
  const parsed = label !== undefined && /^\d{1,5}$/.test(label) ? Number(label) : undefined;
  const port = parsed === undefined || parsed < 1 || parsed > 65535 ? undefined : parsed;
  const host = metricsHostOf(e.labels[METRICS_ADDRESS_LABEL]);
  if (port === undefined && host === undefined) return spec;
  return { ...spec, ...(port === undefined ? {} : { metricsPort: port }), ...(host === undefined ? {} : { metricsHost: host }) };
}

/** The host a `metricsAddress` label names: trimmed, IPv6 brackets removed; blank → none. */
function metricsHostOf(label: string | undefined): string | undefined {
  const host = label?.trim() ?? '';
  if (host === '') return undefined;
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/**
 * `multicluster-file-discovery` (llm-d, alpha): `file-discovery` whose entries are clusters (each
 * a remote EPP or gateway), so `address` may be a host name or an IPv6 address too; the
 * `metricsAddress` and `metricsPort` labels set the scrape host and port (what
 * `multicluster-metrics-data-source` and the metrics scraper poll).
 * @public
 * @category Built-in plugins
 */
export const multiclusterFileDiscoveryPlugin = definePlugin({
  type: MULTICLUSTER_FILE_DISCOVERY,
  description: 'Endpoint discovery: cluster endpoints (host names allowed) from a YAML/JSON file.',
  parameters: fileDiscoveryParameters,
  create: (p, ctx): FileDiscovery => createFileDiscovery(ctx.name, p, { clock: ctx.clock, hosts: 'any', specOf: clusterEndpointSpecOf }, MULTICLUSTER_FILE_DISCOVERY),
});
