import { SwitchyardError } from '@switchyard/core';

/**
 * Options of {@link RedisTransport}.
 * @public
 */
export interface RedisTransportOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://…` for TLS. */
  readonly url: string;
  /** Key prefix, so several fleets can share one Redis (default `switchyard:`). */
  readonly keyPrefix?: string | undefined;
  /** Each command fails after this long (default 500 ms); a slow Redis then counts as down for that sync. */
  readonly commandTimeoutMs?: number | undefined;
  /** Connecting fails after this long (default 1,000 ms); the client then retries with backoff. */
  readonly connectTimeoutMs?: number | undefined;
  /** Reconnect backoff: first delay (default 50 ms), doubled per attempt up to `maxReconnectDelayMs`. */
  readonly minReconnectDelayMs?: number | undefined;
  /** Longest reconnect delay (default 2,000 ms). */
  readonly maxReconnectDelayMs?: number | undefined;
  /** Record batches the events stream keeps (approximate `MAXLEN`, default 2,000). */
  readonly maxStreamLength?: number | undefined;
  /** Record batches read per sync at most (default 256). */
  readonly readBatches?: number | undefined;
  /** Load snapshots whose writer has not updated them for this long are deleted (default 60 s, by wall clock). */
  readonly forgetAfterMs?: number | undefined;
  /** Receives the client's connection errors (they are frequent while Redis is down; the sync logs once). */
  readonly onError?: ((error: Error) => void) | undefined;
}

/** {@link RedisTransportOptions} with defaults applied. @internal */
export interface ResolvedRedisOptions {
  readonly url: string;
  readonly keyPrefix: string;
  readonly commandTimeoutMs: number;
  readonly connectTimeoutMs: number;
  readonly minReconnectDelayMs: number;
  readonly maxReconnectDelayMs: number;
  readonly maxStreamLength: number;
  readonly readBatches: number;
  readonly forgetAfterMs: number;
}

function positive(value: number | undefined, fallback: number, field: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new SwitchyardError('CONFIG_INVALID', `sharedState.redis.${field}: expected a positive number, got ${String(value)}`);
  return value;
}

/**
 * Validates and defaults the options.
 * @throws SwitchyardError `CONFIG_INVALID` naming the bad field
 * @internal
 */
export function resolveRedisOptions(o: RedisTransportOptions): ResolvedRedisOptions {
  let url: URL;
  try {
    url = new URL(o.url);
  } catch {
    throw new SwitchyardError('CONFIG_INVALID', `sharedState.redis.url: expected redis://host:port, got "${o.url}"`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw new SwitchyardError('CONFIG_INVALID', `sharedState.redis.url: expected a redis:// or rediss:// URL, got "${o.url}"`);
  const minDelay = positive(o.minReconnectDelayMs, 50, 'minReconnectDelayMs');
  return {
    url: o.url,
    keyPrefix: o.keyPrefix ?? 'switchyard:',
    commandTimeoutMs: positive(o.commandTimeoutMs, 500, 'commandTimeoutMs'),
    connectTimeoutMs: positive(o.connectTimeoutMs, 1000, 'connectTimeoutMs'),
    minReconnectDelayMs: minDelay,
    maxReconnectDelayMs: Math.max(minDelay, positive(o.maxReconnectDelayMs, 2000, 'maxReconnectDelayMs')),
    maxStreamLength: Math.ceil(positive(o.maxStreamLength, 2000, 'maxStreamLength')),
    readBatches: Math.ceil(positive(o.readBatches, 256, 'readBatches')),
    forgetAfterMs: positive(o.forgetAfterMs, 60_000, 'forgetAfterMs'),
  };
}

/**
 * Reconnect delay after `retries` failed attempts: exponential backoff with a little jitter, so a
 * fleet of replicas does not reconnect in lockstep after a Redis restart.
 * @internal
 */
export function reconnectDelay(retries: number, o: Pick<ResolvedRedisOptions, 'minReconnectDelayMs' | 'maxReconnectDelayMs'>, random: () => number = Math.random): number {
  const base = Math.min(o.maxReconnectDelayMs, o.minReconnectDelayMs * 2 ** Math.min(retries, 20));
  return Math.round(base * (0.8 + 0.4 * random()));
}
