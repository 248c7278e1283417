import type { PluginRegistry } from '../registry/plugin-registry.js';
import type { Filter, Picker, Plugin, SchedulingProfile, WeightedScorer } from '../scheduling/plugins.js';
import { defaultScorerWeights } from './defaults.js';
import { invalid } from './issues.js';
import { isFilter, isPicker, isScorer } from './plugin-kinds.js';
import type { Instance } from './producers.js';
import type { ProfileDocument } from './schema.js';

/**
 * Type of the picker appended to profiles that have none. @public
 * @category Configuration
 */
export const DEFAULT_PICKER = 'max-score-picker';

/**
 * Adds an instance of a registered type with default parameters (named after the type, or
 * `type-2`... when taken) and returns it.
 * @internal
 */
export type AutoCreate = (type: string) => Instance;

/**
 * Resolves `schedulingProfiles` against the instances, applying llm-d's defaulting: without
 * profiles, one profile `default` with every filter, every scorer (weight 1) and the picker,
 * where a config without any scorer gets llm-d's default scorers and weights; a profile without a
 * picker gets a shared `max-score-picker`; a scorer without a weight has weight 1.
 * @returns the profiles and their effective documents
 * @throws SwitchyardError `CONFIG_INVALID` with the path: undefined pluginRef, a ref that is not
 * a filter/scorer/picker, two pickers in a profile, duplicate profile names
 * @internal
 */
export function buildProfiles(
  docs: readonly ProfileDocument[],
  instances: Instance[],
  byName: ReadonlyMap<string, Instance>,
  registry: PluginRegistry,
  autoCreate: AutoCreate,
): { profiles: Map<string, SchedulingProfile>; effective: ProfileDocument[] } {
  let sharedPicker: Picker | undefined;
  const defaultPicker = (): Picker => {
    if (sharedPicker !== undefined) return sharedPicker;
    const existing = byName.get(DEFAULT_PICKER);
    sharedPicker = existing !== undefined && existing.plugin.type === DEFAULT_PICKER ? (existing.plugin as Picker) : (autoCreate(DEFAULT_PICKER).plugin as Picker);
    return sharedPicker;
  };
  const profiles = new Map<string, SchedulingProfile>();
  const effective: ProfileDocument[] = [];

  if (docs.length === 0) {
    const filters = instances.map((i) => i.plugin).filter(isFilter);
    let scorers: WeightedScorer[] = instances.map((i) => i.plugin).filter(isScorer).map((scorer) => ({ scorer, weight: 1 }));
    if (scorers.length === 0) {
      scorers = defaultScorerWeights(registry).map(({ type, weight }) => {
        const existing = instances.find((i) => i.plugin.type === type);
        return { scorer: (existing ?? autoCreate(type)).plugin as WeightedScorer['scorer'], weight };
      });
    }
    const pickers = instances.map((i) => i.plugin).filter(isPicker);
    if (pickers.length > 1) throw invalid(['schedulingProfiles'], `no profiles are defined, and the default profile cannot hold pickers ${pickers.map((p) => `"${p.name}"`).join(', ')}; define schedulingProfiles`);
    const picker = pickers[0] ?? defaultPicker();
    profiles.set('default', { name: 'default', filters, scorers, picker });
    effective.push({
      name: 'default',
      plugins: [...filters.map((f) => ({ pluginRef: f.name })), ...scorers.map((s) => ({ pluginRef: s.scorer.name, weight: s.weight })), { pluginRef: picker.name }],
    });
    return { profiles, effective };
  }

  docs.forEach((doc, p) => {
    if (profiles.has(doc.name)) throw invalid(['schedulingProfiles', p, 'name'], `duplicate profile name "${doc.name}"`);
    const filters: Filter[] = [];
    const scorers: WeightedScorer[] = [];
    let picker: Picker | undefined;
    const refs: ProfileDocument['plugins'] = [];
    doc.plugins.forEach((ref, k) => {
      const path = ['schedulingProfiles', p, 'plugins', k, 'pluginRef'];
      const inst = byName.get(ref.pluginRef);
      if (inst === undefined) throw invalid(path, `undefined plugin "${ref.pluginRef}" (declare it under plugins)`);
      const plugin: Plugin = inst.plugin;
      // A plugin takes every role it implements, as in llm-d (a scorer that filters too does both).
      if (isScorer(plugin) || isFilter(plugin)) {
        if (isFilter(plugin)) filters.push(plugin);
        if (isScorer(plugin)) {
          const weight = ref.weight ?? 1;
          if (!Number.isFinite(weight)) throw invalid(['schedulingProfiles', p, 'plugins', k, 'weight'], 'expected a finite number');
          scorers.push({ scorer: plugin, weight });
          refs.push({ pluginRef: plugin.name, weight });
        } else {
          refs.push({ pluginRef: plugin.name });
        }
      } else if (isPicker(plugin)) {
        if (picker !== undefined) throw invalid(path, `profile "${doc.name}" already has picker "${picker.name}"; a profile has exactly one picker`);
        picker = plugin;
        refs.push({ pluginRef: plugin.name });
      } else {
        throw invalid(path, `plugin "${plugin.name}" (type ${plugin.type}) is not a filter, scorer or picker`);
      }
    });
    if (picker === undefined) {
      picker = defaultPicker();
      refs.push({ pluginRef: picker.name });
    }
    profiles.set(doc.name, { name: doc.name, filters, scorers, picker });
    effective.push({ name: doc.name, plugins: refs });
  });
  return { profiles, effective };
}
