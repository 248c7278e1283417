/**
 * The shared-state flag, declared apart from the other flag groups. `--redis-url` is validated
 * where the settings are resolved (core's `sharedStateSettingsOf`), with the config file's
 * `switchyard.sharedState` block it overrides.
 * @internal
 */
export const EPP_SHARED_STATE_FLAGS = {
  'redis-url': { type: 'string' },
} as const;

/** Usage lines of the shared-state flag. @internal */
export const EPP_SHARED_STATE_USAGE = `Active-active replicas (needs @switchyard/redis and @redis/client):
  --redis-url URL           share in-flight load, routing history and session bindings with the
                            other EPP replicas through this Redis (or the config's
                            switchyard.sharedState.redisUrl); picks never wait on it
`;

/** The `--redis-url` value out of the parsed flags. @internal */
export function redisUrlFlag(values: Readonly<Record<string, unknown>>): string | undefined {
  const v = values['redis-url'];
  return typeof v === 'string' ? v : undefined;
}
