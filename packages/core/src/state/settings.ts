import { z } from 'zod';
import { DATA_LAYER_TICK_MS } from '../config/data-layer-settings.js';
import { durationOrError, durationSchema } from '../config/duration.js';
import { configError, invalid } from '../config/issues.js';
import { parseConfigText } from '../config/parse-source.js';
import { ifAvailableSectionSchema } from '../picker/if-available.js';
import { DEFAULT_SYNC_INTERVAL_MS } from './replica-sync.js';

/**
 * Schema of the shared-state settings block: `switchyard.sharedState` in an EndpointPickerConfig
 * (the EPP), `gateway.sharedState` in the gateway's section. `--redis-url` overrides `redisUrl`.
 * @public
 * @category Shared state across replicas
 */
export const sharedStateSectionSchema = z.strictObject({
  /** `redis://host:port`: turns sharing on. */
  redisUrl: z.string().min(1).optional(),
  /** Sync interval (`200ms`); default `dataLayer.crossReplicaSyncInterval`, else 200 ms. */
  syncInterval: durationSchema.optional(),
  /** Oldest shared state still used (default max(1 s, 5 × interval)). */
  maxStaleness: durationSchema.optional(),
  /** Redis key prefix, so several fleets can share one Redis (default `switchyard:`). */
  keyPrefix: z.string().min(1).optional(),
  /** This replica's id (default host name and process id). */
  replicaId: z.string().min(1).optional(),
});

/**
 * Schema of Switchyard's own top-level section of an EndpointPickerConfig (llm-d has no such
 * field, so llm-d configs are unaffected).
 * @public
 * @category Shared state across replicas
 */
export const switchyardSectionSchema = z.strictObject({
  sharedState: sharedStateSectionSchema.optional(),
  /** How `Prefer: if-available` is honoured (see `IfAvailableMode`); off when absent. */
  ifAvailable: ifAvailableSectionSchema.optional(),
});

/**
 * Switchyard's own section of an EndpointPickerConfig, validated.
 * @public
 * @category Shared state across replicas
 */
export type SwitchyardSection = z.output<typeof switchyardSectionSchema>;

/**
 * Resolved shared-state settings: where the store is and how often to sync.
 * @public
 * @category Shared state across replicas
 */
export interface SharedStateSettings {
  /** The Redis URL. */
  readonly redisUrl: string;
  /** Sync interval in ms (rounded up to the 50 ms data-layer tick). */
  readonly syncIntervalMs: number;
  /** Staleness bound in ms, when set. */
  readonly maxStalenessMs: number | undefined;
  /** Key prefix, when set. */
  readonly keyPrefix: string | undefined;
  /** Replica id, when set. */
  readonly replicaId: string | undefined;
}

/**
 * Inputs of {@link resolveSharedStateSettings}.
 * @public
 * @category Shared state across replicas
 */
export interface SharedStateSettingsInput {
  /** The settings block as written (validated here). */
  readonly section?: unknown;
  /** Where the block lives, for error messages (default `switchyard.sharedState`). */
  readonly path?: readonly (string | number)[] | undefined;
  /** The EndpointPickerConfig's `dataLayer` block (its `crossReplicaSyncInterval` is the default interval). */
  readonly dataLayer?: unknown;
  /** `--redis-url`, which wins over the block's `redisUrl`. */
  readonly redisUrl?: string | undefined;
}

/**
 * The shared-state settings of a replica, or undefined when no Redis URL is given (one replica,
 * nothing shared). The interval is `syncInterval`, else llm-d's
 * `dataLayer.crossReplicaSyncInterval`, else 200 ms, rounded up to the 50 ms tick.
 * @throws SwitchyardError `CONFIG_INVALID` naming the bad field
 * @public
 * @category Shared state across replicas
 */
export function resolveSharedStateSettings(input: SharedStateSettingsInput): SharedStateSettings | undefined {
  const path = input.path ?? ['switchyard', 'sharedState'];
  const parsed = sharedStateSectionSchema.safeParse(input.section ?? {});
  if (!parsed.success) throw configError(parsed.error.issues, input.section, [...path]);
  const s = parsed.data;
  const redisUrl = input.redisUrl ?? s.redisUrl;
  if (redisUrl === undefined) return undefined;
  if (!/^rediss?:\/\/./.test(redisUrl)) throw invalid(input.redisUrl === undefined ? [...path, 'redisUrl'] : ['--redis-url'], `expected redis://host:port, got "${redisUrl}"`);
  let interval = s.syncInterval;
  const dl = input.dataLayer as { crossReplicaSyncInterval?: unknown } | undefined;
  if (interval === undefined && dl?.crossReplicaSyncInterval !== undefined) {
    const ms = durationOrError(dl.crossReplicaSyncInterval);
    if (typeof ms === 'string') throw invalid(['dataLayer', 'crossReplicaSyncInterval'], ms);
    interval = ms;
  }
  interval ??= DEFAULT_SYNC_INTERVAL_MS;
  if (!(interval > 0)) throw invalid([...path, 'syncInterval'], 'expected a positive duration');
  if (s.maxStaleness !== undefined && !(s.maxStaleness > 0)) throw invalid([...path, 'maxStaleness'], 'expected a positive duration');
  return {
    redisUrl,
    syncIntervalMs: Math.ceil(interval / DATA_LAYER_TICK_MS) * DATA_LAYER_TICK_MS,
    maxStalenessMs: s.maxStaleness,
    keyPrefix: s.keyPrefix,
    replicaId: s.replicaId,
  };
}

/**
 * {@link resolveSharedStateSettings} for an EndpointPickerConfig (text or parsed): reads its
 * `switchyard.sharedState` block and `dataLayer.crossReplicaSyncInterval`. What the EPP uses
 * before it loads the config, because the plugins it creates need the shared state.
 * @throws SwitchyardError `CONFIG_INVALID` naming the bad field
 * @public
 * @category Shared state across replicas
 */
export function sharedStateSettingsOf(config: string | object | undefined, redisUrl?: string): SharedStateSettings | undefined {
  const doc = (typeof config === 'string' ? parseConfigText(config) : config) as { switchyard?: { sharedState?: unknown }; dataLayer?: unknown } | undefined | null;
  const section = doc?.switchyard;
  if (section !== undefined) {
    const ok = switchyardSectionSchema.safeParse(section);
    if (!ok.success) throw configError(ok.error.issues, section, ['switchyard']);
  }
  return resolveSharedStateSettings({ section: section?.sharedState, dataLayer: doc?.dataLayer, redisUrl });
}
