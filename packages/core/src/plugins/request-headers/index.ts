export { isRequestHeaderProcessor } from './request-header-processor.js';
export type { RequestHeaderProcessor } from './request-header-processor.js';
export { agentIdentityPlugin, agentIdentityParameters, agentIdentityAttribute, firstSessionHeader, AGENT_IDENTITY, AGENT_SESSION_HEADERS } from './agent-identity.js';
