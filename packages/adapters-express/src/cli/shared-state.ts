/**
 * The shared-state flag, declared here so the other flag groups of the command line stay apart.
 * `--redis-url` is validated where the settings are resolved (core's `resolveSharedStateSettings`),
 * with the config file's `sharedState` block it overrides.
 * @internal
 */
export const GATEWAY_SHARED_STATE_FLAGS = {
  'redis-url': { type: 'string' },
} as const;

/** Usage lines of the shared-state flag. @internal */
export const GATEWAY_SHARED_STATE_USAGE = `Several gateway replicas, one fleet (needs @switchyard/redis and @redis/client):
  --redis-url URL      share in-flight load, routing history and session bindings with the
                       other replicas through this Redis (or gateway.sharedState.redisUrl);
                       requests never wait on it and are served from local state when it is down
`;

/** The `--redis-url` value out of the parsed flags. @internal */
export function redisUrlFlag(values: Readonly<Record<string, unknown>>): string | undefined {
  const v = values['redis-url'];
  return typeof v === 'string' ? v : undefined;
}
