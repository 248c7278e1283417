export { parseGatewayArgs, GATEWAY_USAGE } from './args.js';
export type { GatewayCliArgs } from './args.js';
export { runGatewayCli } from './run.js';
export type { GatewayCliIo, GatewayCliResult } from './run.js';
export { runGatewayExplain, GATEWAY_EXPLAIN_USAGE } from './explain.js';
