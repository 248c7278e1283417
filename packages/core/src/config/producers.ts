import { SwitchyardError } from '../errors/switchyard-error.js';
import type { PluginRegistry } from '../registry/plugin-registry.js';
import type { PluginDefinition, PluginFactoryContext } from '../registry/types.js';
import type { DataProducer, Plugin } from '../scheduling/plugins.js';
import { orderProducers } from '../scheduling/producer-order.js';
import { consumesOf, isDataProducer } from './plugin-kinds.js';

/**
 * A plugin instance with the definition it came from (undefined for hand-built instances).
 * @internal
 */
export interface Instance {
  readonly plugin: Plugin;
  readonly def: PluginDefinition | undefined;
  /** Parsed parameters (for printing the effective config). */
  readonly params: unknown;
  /** Parameters as written in the config, when it came from one. */
  readonly raw?: unknown;
  /** True when the loader created it by defaulting rules. */
  readonly auto: boolean;
  /** Parameters llm-d accepts that were given but are not acted on (see `PluginDefinition.notActedOn`). */
  readonly notActedOn?: readonly { readonly parameter: string; readonly reason: string }[];
}

/**
 * Adds a default producer (a registered type whose `defaultProducerFor` lists the attribute)
 * for every consumed attribute nothing produces, then orders all producers.
 * @throws SwitchyardError `CONFIG_INVALID` for a consumed attribute without any possible producer,
 * or a producer dependency cycle
 * @internal
 */
export function completeProducers(
  instances: Instance[],
  registry: PluginRegistry,
  context: (name: string) => PluginFactoryContext,
): DataProducer[] {
  const produced = new Set<string>();
  for (const i of instances) if (isDataProducer(i.plugin)) for (const a of i.plugin.produces) produced.add(a);
  for (let k = 0; k < instances.length; k++) {
    const inst = instances[k] as Instance;
    for (const attr of consumesOf(inst.plugin, inst.def)) {
      if (produced.has(attr)) continue;
      const def = registry.definitions().find((d) => d.defaultProducerFor?.includes(attr) === true);
      if (def === undefined) {
        throw new SwitchyardError(
          'CONFIG_INVALID',
          `plugin "${inst.plugin.name}" (type ${inst.plugin.type}) consumes attribute "${attr}", but no configured plugin produces it and no registered type is its default producer`,
        );
      }
      const taken = new Set(instances.map((i) => i.plugin.name));
      let name = def.type;
      for (let n = 2; taken.has(name); n++) name = `${def.type}-${n}`;
      const params = def.parameters.parse({});
      const plugin = def.create(params, context(name));
      if (!isDataProducer(plugin)) {
        throw new SwitchyardError('CONFIG_INVALID', `type "${def.type}" is registered as default producer of "${attr}" but its instances are not data producers`);
      }
      instances.push({ plugin, def, params, auto: true });
      for (const a of plugin.produces) produced.add(a);
    }
  }
  return orderProducers(instances.map((i) => i.plugin).filter(isDataProducer));
}
