export { startEpp } from './start-epp.js';
export type { EppOptions, RunningEpp } from './start-epp.js';
export { startMetricsServer, formatServerStats } from './metrics-server.js';
export type { MetricsSource, MetricsHttpServer } from './metrics-server.js';
