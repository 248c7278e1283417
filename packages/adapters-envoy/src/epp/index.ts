export { startEpp } from './start-epp.js';
export { EPP_DEFAULTS, resolveEppOptions } from './defaults.js';
export type { EppDefaults, ResolvedEppOptions } from './defaults.js';
export type { EppOptions, RunningEpp } from './start-epp.js';
export { startMetricsServer, formatServerStats } from './metrics-server.js';
export type { MetricsSource, MetricsHttpServer } from './metrics-server.js';
