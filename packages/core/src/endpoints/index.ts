export type { EngineType, EndpointMetrics, EndpointSpec, Endpoint } from './types.js';
export { ROLE_LABEL, ENGINE_TYPE_LABEL, ENGINE_TYPE_LABEL_FALLBACK } from './types.js';
export { EndpointPool } from './pool.js';
export type { EndpointPoolEvents, InFlightCounts } from './pool.js';
export { parseAddress, joinHostPort } from './address.js';
export type { ParsedAddress } from './address.js';
