export { startEppServer } from './server.js';
export { EPP_SERVER_DEFAULTS, resolveEppServerOptions } from './server-defaults.js';
export type { EppServerDefaults, ResolvedEppServerOptions } from './server-defaults.js';
export type { EppServer, EppServerOptions, EppServerStats, EppTlsOptions, EppKeepaliveOptions, EppTransport } from './options.js';
export { HealthState, ServingStatus, EXT_PROC_SERVICE_NAME } from './health.js';
export type { ServingStatusValue, HealthStateEvents } from './health.js';
