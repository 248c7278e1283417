export { parseGatewayArgs, GATEWAY_USAGE } from './args.js';
export type { GatewayCliArgs } from './args.js';
