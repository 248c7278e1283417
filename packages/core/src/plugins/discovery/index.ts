export { isEndpointDiscovery, startDiscovery } from './endpoint-discovery.js';
export type { DiscoveryTarget, EndpointDiscovery } from './endpoint-discovery.js';
export { parseEndpointsFile, endpointSpecOf, MAX_ENDPOINTS_FILE_BYTES } from './endpoints-file.js';
export type { FileEndpoint, EndpointsFileHosts, DiscoveredEndpoint } from './endpoints-file.js';
export { fileDiscoveryPlugin, fileDiscoveryParameters, createFileDiscovery, FILE_DISCOVERY, FILE_WATCH_POLL_MS } from './file-discovery.js';
export type { FileDiscovery, FileDiscoveryDeps, EndpointsFileReader } from './file-discovery.js';
export { multiclusterFileDiscoveryPlugin, clusterEndpointSpecOf, MULTICLUSTER_FILE_DISCOVERY, METRICS_PORT_LABEL, METRICS_ADDRESS_LABEL } from './multicluster-file-discovery.js';
