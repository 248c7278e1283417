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
 * The pool entry of a cluster endpoint: as `file-discovery`'s, with the `metricsPort` label as
 * the scrape port (a bad one is ignored: the serving port is scraped, llm-d's default).
 * @public
 * @category Built-in plugins
 */
export function clusterEndpointSpecOf(e: FileEndpoint): DiscoveredEndpoint {
  const spec = endpointSpecOf(e);
  const label = e.labels[METRICS_PORT_LABEL];
  const port = label !== undefined && /^\d{1,5}$/.test(label) ? Number(label) : undefined;
  return port === undefined || port < 1 || port > 65535 ? spec : { ...spec, metricsPort: port };
}

/**
 * `multicluster-file-discovery` (llm-d, alpha): `file-discovery` whose entries are clusters (each
 * a remote EPP or gateway), so `address` may be a host name or an IPv6 address too; the
 * `metricsPort` label sets the scrape port. The `metricsAddress` label (another scrape host) is
 * not acted on: Switchyard scrapes an endpoint on its own host.
 * @public
 * @category Built-in plugins
 */
export const multiclusterFileDiscoveryPlugin = definePlugin({
  type: MULTICLUSTER_FILE_DISCOVERY,
  description: 'Endpoint discovery: cluster endpoints (host names allowed) from a YAML/JSON file.',
  parameters: fileDiscoveryParameters,
  create: (p, ctx): FileDiscovery => createFileDiscovery(ctx.name, p, { clock: ctx.clock, hosts: 'any', specOf: clusterEndpointSpecOf }, MULTICLUSTER_FILE_DISCOVERY),
});
