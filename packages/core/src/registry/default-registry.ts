import { builtinPlugins } from '../plugins/builtins.js';
import { concurrencyDetectorPlugin, utilizationDetectorPlugin } from '../saturation/plugins.js';
import { PluginRegistry } from './plugin-registry.js';

/**
 * A new registry holding every core built-in: filters, scorers, pickers, profile handlers,
 * deciders, producers and the saturation detectors. Add the prefix-aware plugins of
 * `@switchyard/prefix-index`, the policies of `@switchyard/flow-control` and your own with
 * `registerAll`.
 * @public
 * @category Plugin registry and packs
 */
export function createDefaultRegistry(): PluginRegistry {
  return new PluginRegistry().registerAll(builtinPlugins).registerAll([utilizationDetectorPlugin, concurrencyDetectorPlugin]);
}
