/**
 * `@switchyard/redis`: shared state across Switchyard gateway and EPP replicas on Redis
 * (in-flight load, approximate routing history, session bindings), behind core's state seam.
 * @packageDocumentation
 */
export { RedisTransport } from './redis-transport.js';
export type { RedisTransportStats } from './redis-transport.js';
export type { RedisTransportOptions } from './options.js';
export { createRedisSharedState } from './redis-shared-state.js';
export type { RedisSharedStateOptions } from './redis-shared-state.js';
export { startRedisServer } from './redis-server.js';
export type { RedisServerHandle } from './redis-server.js';
export { createRedisSharedStateFromSettings } from './from-settings.js';
export type { SharedStateRuntime } from './from-settings.js';
