import { SwitchyardError, sharedStateSettingsOf, type Clock, type ReplicaSync } from '@switchyard/core';
import type { Registry } from 'prom-client';

/**
 * The Redis shared state `--redis-url` or the config's `switchyard.sharedState` asks for, or
 * undefined when neither names a Redis URL. `@switchyard/redis` is an optional peer, loaded only here.
 * @throws SwitchyardError `CONFIG_INVALID` naming the bad field, or when `@switchyard/redis` is missing
 */
export async function eppSharedState(config: string | object | undefined, redisUrl: string | undefined, runtime: { clock: Clock; registry: Registry; log: (line: string) => void }): Promise<ReplicaSync | undefined> {
  const settings = sharedStateSettingsOf(config, redisUrl);
  if (settings === undefined) return undefined;
  let redis: typeof import('@switchyard/redis');
  try {
    redis = await import('@switchyard/redis');
  } catch (err) {
    throw new SwitchyardError('CONFIG_INVALID', 'shared state (--redis-url, switchyard.sharedState.redisUrl) needs @switchyard/redis and @redis/client installed', { cause: err });
  }
  return redis.createRedisSharedStateFromSettings(settings, runtime);
}
