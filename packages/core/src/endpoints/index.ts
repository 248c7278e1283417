export type { EngineType, EndpointMetrics, EndpointSpec, Endpoint } from './types.js';
export { ROLE_LABEL, ENGINE_TYPE_LABEL, ENGINE_TYPE_LABEL_FALLBACK } from './types.js';
