import { hostname } from 'node:os';
import type { Clock, ReplicaSyncOptions, SharedStateSettings } from '@switchyard/core';
import { createRedisSharedState } from './redis-shared-state.js';

/**
 * What a runner adds to the resolved settings: its clock, its metrics registry and its log.
 * @public
 */
export interface SharedStateRuntime {
  /** Time source of the sync loop. @defaultValue systemClock */
  readonly clock?: Clock | undefined;
  /** Where `switchyard_shared_state_*` go (the runner's `/metrics` registry). */
  readonly registry?: ReplicaSyncOptions['registry'];
  /** One line when sharing stops working and one when it is back. */
  readonly log?: ((line: string) => void) | undefined;
}

/** This process's default replica id: unique per pod (host name) and per process on one host. @internal */
export function defaultReplicaId(): string {
  return `${hostname()}-${process.pid}`;
}

/**
 * Shared state on Redis from settings core resolved (`resolveSharedStateSettings` /
 * `sharedStateSettingsOf`: `--redis-url`, a `sharedState` block, llm-d's
 * `dataLayer.crossReplicaSyncInterval`). This is what `switchyard-gateway --redis-url` and
 * `switchyard-epp --redis-url` call; the replica id defaults to host name and process id.
 * Attach the pools, load the config with it, then `start()`.
 * @throws SwitchyardError `CONFIG_INVALID` naming a bad setting
 * @public
 */
export function createRedisSharedStateFromSettings(settings: SharedStateSettings, runtime: SharedStateRuntime = {}): ReturnType<typeof createRedisSharedState> {
  return createRedisSharedState({
    url: settings.redisUrl,
    syncIntervalMs: settings.syncIntervalMs,
    maxStalenessMs: settings.maxStalenessMs,
    keyPrefix: settings.keyPrefix,
    replicaId: settings.replicaId ?? defaultReplicaId(),
    clock: runtime.clock,
    registry: runtime.registry,
    log: runtime.log,
  });
}
