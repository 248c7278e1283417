export { gatewaySectionSchema, gatewayEndpointSchema } from './schema.js';
export type { GatewaySection, GatewaySectionInput, GatewayEndpointInput } from './schema.js';
export { addressMatcher, trustPredicate } from './trust.js';
export { splitConfig, parseConfigDocument, resolvePoolDocument } from './document.js';
export type { SplitConfig } from './document.js';
export { buildPool } from './build-pool.js';
export type { PoolBuildSpec, PoolBuildContext, BuiltPool } from './build-pool.js';
export { createGatewayFromConfig } from './from-config.js';
export type { GatewayFromConfigOptions, Gateway } from './from-config.js';
