/**
 * `@switchyard/express/fastify`: the Switchyard gateway as a Fastify plugin.
 * @packageDocumentation
 */
export { switchyardFastify } from './plugin.js';
export type { SwitchyardFastifyOptions } from './plugin.js';
