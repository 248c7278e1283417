import { ReplicaSync, type ReplicaSyncOptions } from '@switchyard/core';
import type { RedisTransportOptions } from './options.js';
import { RedisTransport } from './redis-transport.js';

/**
 * Options of {@link createRedisSharedState}: where Redis is and how to sync with it.
 * @public
 */
export interface RedisSharedStateOptions extends RedisTransportOptions, Omit<ReplicaSyncOptions, 'transport'> {}

/**
 * Shared state across replicas on Redis: a {@link RedisTransport} under a core `ReplicaSync`.
 * Attach the pools (`attachPool`), hand the result to `loadConfig({ sharedState })`, then
 * `start()`; `close()` on shutdown. Nothing here blocks on Redis: a Redis that is down at start
 * is retried in the background while requests are served from local state.
 * @example
 * ```ts
 * const shared = createRedisSharedState({ url: 'redis://127.0.0.1:6379', replicaId: 'gw-a' });
 * shared.attachPool(pool);
 * const config = loadConfig(text, { registry, pool, sharedState: shared });
 * shared.start();
 * ```
 * @throws SwitchyardError `CONFIG_INVALID` naming a bad option
 * @public
 */
export function createRedisSharedState(options: RedisSharedStateOptions): ReplicaSync & { readonly transport: RedisTransport } {
  const transport = new RedisTransport(options);
  // The transport keeps its own deadlines (the connect timeout before the first connection, the
  // command timeout after); the sync's must not cut the first connection short.
  const sync = new ReplicaSync({ ...options, exchangeTimeoutMs: options.exchangeTimeoutMs ?? transport.maxExchangeMs, transport });
  return Object.assign(sync, { transport });
}
