import { SwitchyardError, resolveSharedStateSettings, type Clock, type ReplicaSync } from '@switchyard/core';
import type { Registry } from 'prom-client';
import type { GatewaySection } from './schema.js';

/**
 * Where the gateway's shared-state settings come from: `--redis-url`, the `gateway.sharedState`
 * block, else the EndpointPickerConfig's `switchyard.sharedState` (what `switchyard-epp` reads).
 */
export interface GatewaySharedStateInput {
  readonly section: GatewaySection;
  readonly endpointPicker: Record<string, unknown>;
  readonly redisUrl: string | undefined;
  readonly clock: Clock;
  readonly registry: Registry;
  readonly log: ((line: string) => void) | undefined;
}

/**
 * The Redis shared state the gateway's settings ask for, or undefined when none names a Redis
 * URL. `@switchyard/redis` is an optional peer, loaded only here.
 * @throws SwitchyardError `CONFIG_INVALID` naming the bad field, or when `@switchyard/redis` is missing
 */
export async function gatewaySharedState(input: GatewaySharedStateInput): Promise<ReplicaSync | undefined> {
  const own = input.section.sharedState;
  const epp = (input.endpointPicker['switchyard'] as { sharedState?: unknown } | undefined)?.sharedState;
  const settings = resolveSharedStateSettings({
    section: own ?? epp,
    path: own === undefined ? ['switchyard', 'sharedState'] : ['gateway', 'sharedState'],
    dataLayer: input.endpointPicker['dataLayer'],
    redisUrl: input.redisUrl,
  });
  if (settings === undefined) return undefined;
  let redis: typeof import('@switchyard/redis');
  try {
    redis = await import('@switchyard/redis');
  } catch (err) {
    throw new SwitchyardError('CONFIG_INVALID', 'shared state (--redis-url, sharedState.redisUrl) needs @switchyard/redis and @redis/client installed', { cause: err });
  }
  return redis.createRedisSharedStateFromSettings(settings, { clock: input.clock, registry: input.registry, log: input.log });
}
