import { systemClock, type Clock } from '../clock/clock.js';
import { EndpointPool } from '../endpoints/pool.js';
import { SwitchyardError } from '../errors/switchyard-error.js';
import { maxScorePickerPlugin } from '../plugins/pickers/max-score-picker.js';
import { createSingleProfileHandler } from '../plugins/profile-handlers/single-profile-handler.js';
import { createDefaultRegistry } from '../registry/default-registry.js';
import type { PluginRegistry } from '../registry/plugin-registry.js';
import type { PluginFactoryContext } from '../registry/types.js';
import type { DataProducer, Filter, Picker, Plugin, ProfileHandler, SchedulingProfile, Scorer, WeightedScorer } from '../scheduling/plugins.js';
import type { SchedulerConfig } from '../scheduling/scheduler.js';
import { completeProducers, type Instance } from './producers.js';

/**
 * One profile built in code.
 * @public
 * @category Configuration
 */
export interface ProfileSpec {
  /** Profile name (default `default`). */
  readonly name?: string;
  /** Filters, in order. */
  readonly filters?: readonly Filter[];
  /** Scorers; a bare scorer has weight 1. */
  readonly scorers?: readonly (Scorer | WeightedScorer)[];
  /** Picker (default: a shared `max-score-picker`). */
  readonly picker?: Picker;
}

/**
 * Options of {@link createSchedulerConfig}.
 * @public
 * @category Configuration
 */
export interface SchedulerConfigOptions {
  /** The profiles. */
  readonly profiles: readonly ProfileSpec[];
  /** Profile handler (default `single-profile-handler`, which needs exactly one profile). */
  readonly profileHandler?: ProfileHandler;
  /** Data producers (ordered automatically; missing ones are created from `registry`). */
  readonly producers?: readonly DataProducer[];
  /** Further plugins whose lifecycle hooks should run (e.g. a learning plugin outside profiles). */
  readonly plugins?: readonly Plugin[];
  /** Where default producers come from (default: `createDefaultRegistry()`). */
  readonly registry?: PluginRegistry;
  /** Pool handed to auto-created plugins. */
  readonly pool?: EndpointPool;
  /** Clock handed to auto-created plugins. */
  readonly clock?: Clock;
}

const isWeighted = (s: Scorer | WeightedScorer): s is WeightedScorer => 'scorer' in s && typeof s.weight === 'number';

/**
 * Builds a {@link SchedulerConfig} in code, applying the same defaults as the config loader
 * (max-score picker, single-profile handler, missing producers, producer order).
 * @example
 * ```ts
 * const registry = createDefaultRegistry();
 * const config = createSchedulerConfig({
 *   profiles: [{ scorers: [{ scorer: myScorer, weight: 2 }] }],
 * });
 * const picker = new EndpointPicker({ pool, config });
 * ```
 * @throws SwitchyardError `CONFIG_INVALID` on duplicate names, no profile, several profiles
 * without a handler, or unresolvable producers
 * @public
 * @category Configuration
 */
export function createSchedulerConfig(options: SchedulerConfigOptions): SchedulerConfig {
  if (options.profiles.length === 0) throw new SwitchyardError('CONFIG_INVALID', 'profiles: at least one profile is required');
  const clock = options.clock ?? systemClock;
  const pool = options.pool ?? new EndpointPool();
  const byName = new Map<string, Plugin>();
  const instances: Instance[] = [];
  const add = (p: Plugin): void => {
    const existing = byName.get(p.name);
    if (existing === p) return;
    if (existing !== undefined) throw new SwitchyardError('CONFIG_INVALID', `duplicate plugin name "${p.name}"`);
    byName.set(p.name, p);
    instances.push({ plugin: p, def: undefined, params: undefined, auto: false });
  };
  const context = (name: string): PluginFactoryContext => ({ name, clock, pool, lookup: (n) => byName.get(n) });
  let defaultPicker: Picker | undefined;

  const profiles = new Map<string, SchedulingProfile>();
  for (const spec of options.profiles) {
    const name = spec.name ?? 'default';
    if (profiles.has(name)) throw new SwitchyardError('CONFIG_INVALID', `duplicate profile name "${name}"`);
    const picker = spec.picker ?? (defaultPicker ??= maxScorePickerPlugin.create(maxScorePickerPlugin.parameters.parse({}), context('max-score-picker')) as Picker);
    const scorers = (spec.scorers ?? []).map((s) => (isWeighted(s) ? s : { scorer: s, weight: 1 }));
    const profile: SchedulingProfile = { name, filters: spec.filters ?? [], scorers, picker };
    for (const f of profile.filters) add(f);
    for (const s of scorers) add(s.scorer);
    add(picker);
    profiles.set(name, profile);
  }
  if (options.profileHandler === undefined && profiles.size > 1) {
    throw new SwitchyardError('CONFIG_INVALID', `profiles: ${profiles.size} profiles need a profileHandler (single-profile-handler runs exactly one)`);
  }
  const profileHandler = options.profileHandler ?? createSingleProfileHandler();
  add(profileHandler);
  try {
    profileHandler.validate?.(profiles);
  } catch (error) {
    throw new SwitchyardError('CONFIG_INVALID', `profile handler "${profileHandler.name}": ${error instanceof Error ? error.message : String(error)}`);
  }
  for (const p of options.producers ?? []) add(p);
  for (const p of options.plugins ?? []) add(p);
  const producers = completeProducers(instances, options.registry ?? createDefaultRegistry(), context);
  for (const i of instances) byName.set(i.plugin.name, i.plugin);
  return { profiles, profileHandler, producers, plugins: byName };
}
