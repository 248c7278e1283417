import type { Plugin } from '../scheduling/plugins.js';
import type { PluginDefinition } from './types.js';

/**
 * A definition that builds what `base` builds under another type name: llm-d registers several
 * types that share a factory and differ only in the type they report (the `multicluster-*`
 * variants, whose cross-cluster endpoints come from discovery). The instances report `type`
 * (in metrics' `plugin_type`, traces and the effective config). The renamed type is never a
 * default producer: the loader keeps auto-creating `base`.
 * @public
 * @category Plugins
 */
export function renamedPluginDefinition<P>(base: PluginDefinition<P>, type: string, description?: string): PluginDefinition<P> {
  const { defaultProducerFor: _notDefault, ...rest } = base;
  return {
    ...rest,
    type,
    ...(description === undefined ? {} : { description }),
    create: (params, ctx): Plugin => {
      const plugin = base.create(params, ctx);
      // Own property on both object literals and class instances (fields are own properties).
      Object.defineProperty(plugin, 'type', { value: type, enumerable: true, configurable: true, writable: false });
      return plugin;
    },
  };
}
