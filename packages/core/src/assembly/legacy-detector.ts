import type { LoadedConfig } from '../config/loader.js';
import { SwitchyardError } from '../errors/switchyard-error.js';
import { isSaturationDetector, type SaturationDetector } from '../saturation/types.js';

/**
 * The saturation detector legacy admission (flow control off) uses: the plugin the config names
 * in `flowControl.saturationDetector.pluginRef` — llm-d honours that reference with the gate off
 * too — or undefined for the built-in `utilization-detector` with llm-d's defaults.
 * @throws SwitchyardError `CONFIG_INVALID` when the named plugin is not a saturation detector
 */
export function legacyAdmissionDetector(config: LoadedConfig): SaturationDetector | undefined {
  const block = config.flowControl?.['saturationDetector'] as { pluginRef?: unknown } | undefined;
  const name = block?.pluginRef;
  if (typeof name !== 'string' || name === '') return undefined;
  const plugin = config.plugins.get(name);
  // The loader has already rejected references to undeclared plugins.
  if (plugin === undefined) return undefined;
  if (!isSaturationDetector(plugin)) {
    throw new SwitchyardError('CONFIG_INVALID', `flowControl.saturationDetector.pluginRef: plugin "${name}" (type ${plugin.type}) is not a saturation detector`);
  }
  return plugin;
}
