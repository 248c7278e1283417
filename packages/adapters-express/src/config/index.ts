export { gatewaySectionSchema } from './schema.js';
export type { GatewaySection, GatewaySectionInput, GatewayEndpointInput } from './schema.js';
export { addressMatcher, trustPredicate } from './trust.js';
