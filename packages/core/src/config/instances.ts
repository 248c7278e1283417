import type { Registry } from 'prom-client';
import type { Clock } from '../clock/clock.js';
import type { EndpointPool } from '../endpoints/pool.js';
import { isSwitchyardError } from '../errors/switchyard-error.js';
import type { PluginRegistry } from '../registry/plugin-registry.js';
import type { PluginFactoryContext } from '../registry/types.js';
import { abandonPlugins } from '../scheduling/close-plugins.js';
import type { Plugin } from '../scheduling/plugins.js';
import { invalid } from './issues.js';
import { parsePluginParameters } from './not-acted-on.js';
import type { Instance } from './producers.js';
import type { PluginSpec } from './schema.js';
import type { SharedState } from '../state/types.js';

/**
 * Dependencies of plugin creation.
 * @internal
 */
export interface InstanceDeps {
  readonly registry: PluginRegistry;
  readonly pool: EndpointPool;
  readonly clock: Clock;
  readonly allowExperimental: boolean;
  readonly sharedState?: SharedState | undefined;
  readonly metrics?: Registry | undefined;
}

/**
 * Builds the plugin instances of a config's `plugins` list, in order, validating each
 * `parameters` object against its type's schema. A factory may look up another plugin by name
 * (e.g. a profile handler's deciders); that plugin is created first, whatever its position.
 * @returns instances in declaration order, plus a name index that later stages extend
 * @throws SwitchyardError `CONFIG_INVALID` naming the path: unknown type (with the known types),
 * duplicate name, experimental type without `allowExperimental`, bad parameters, reference cycles
 * @internal
 */
export function createInstances(specs: readonly PluginSpec[], deps: InstanceDeps): { instances: Instance[]; byName: Map<string, Instance> } {
  const indexOf = new Map<string, number>();
  specs.forEach((spec, i) => {
    const name = spec.name ?? spec.type;
    const previous = indexOf.get(name);
    if (previous !== undefined) throw invalid(['plugins', i, 'name'], `duplicate plugin name "${name}" (also plugins[${previous}]; names default to the type)`);
    indexOf.set(name, i);
    const def = deps.registry.get(spec.type);
    if (def === undefined) throw invalid(['plugins', i, 'type'], `unknown plugin type "${spec.type}" (known types: ${deps.registry.types().join(', ')})`);
    if (def.experimental === true && !deps.allowExperimental) {
      throw invalid(['plugins', i, 'type'], `plugin type "${spec.type}" is experimental; load with allowExperimental: true`);
    }
  });

  const built = new Array<Instance | undefined>(specs.length);
  const byName = new Map<string, Instance>();
  const building = new Set<number>();
  const build = (i: number): Instance => {
    const existing = built[i];
    if (existing !== undefined) return existing;
    const spec = specs[i] as PluginSpec;
    const name = spec.name ?? spec.type;
    if (building.has(i)) throw invalid(['plugins', i], `plugin "${name}" is part of a reference cycle`);
    building.add(i);
    // Known to exist: checked above.
    const def = deps.registry.get(spec.type) as NonNullable<ReturnType<PluginRegistry['get']>>;
    const parsed = parsePluginParameters(def, spec.parameters, ['plugins', i, 'parameters']);
    if (!parsed.success) throw parsed.error;
    const ctx: PluginFactoryContext = {
      name,
      clock: deps.clock,
      pool: deps.pool,
      sharedState: deps.sharedState,
      metrics: deps.metrics,
      lookup: (ref: string): Plugin | undefined => {
        const j = indexOf.get(ref);
        // Not listed: a plugin the loader creates later (by default rules) is found once it exists.
        return j === undefined ? byName.get(ref)?.plugin : build(j).plugin;
      },
    };
    let plugin: Plugin;
    try {
      plugin = def.create(parsed.data, ctx);
    } catch (error) {
      if (isSwitchyardError(error) && error.code === 'CONFIG_INVALID' && /^plugins\[\d+\]/.test(error.message)) throw error;
      throw invalid(['plugins', i], `plugin "${name}" (type ${spec.type}): ${error instanceof Error ? error.message : String(error)}`);
    }
    const inst: Instance = { plugin, def, params: parsed.data, raw: spec.parameters, auto: false, notActedOn: parsed.notActedOn };
    built[i] = inst;
    byName.set(name, inst);
    building.delete(i);
    return inst;
  };
  try {
    for (let i = 0; i < specs.length; i++) build(i);
  } catch (error) {
    abandonPlugins(built.flatMap((inst) => (inst === undefined ? [] : [inst.plugin])));
    throw error;
  }
  return { instances: built as Instance[], byName };
}
