import type { LoadedConfig } from '@switchyard/core';
import { FlowController } from './flow-controller.js';
import type { FlowControllerOptions } from './options.js';

/**
 * Creates a {@link FlowController} from llm-d's `flowControl` block (`options.config`) and the
 * config's plugins. Without a block every default applies: band 0 with 5000 requests / 1e9 bytes,
 * FCFS ordering, global-strict fairness, static ceiling 1.0, `utilization-detector`, 60s TTL.
 * @example
 * ```ts
 * const admission = createFlowController({ pool, config: loaded.flowControl, plugins: loaded.plugins });
 * const grant = await admission.admit(schedulingRequest, { signal });
 * try { ... } finally { grant.release({ kind: 'success' }); }
 * ```
 * @throws SwitchyardError `CONFIG_INVALID` when the block is invalid
 * @public
 * @category Controller
 */
export function createFlowController(options: FlowControllerOptions): FlowController {
  return new FlowController(options);
}

/**
 * The flow controller a loaded `EndpointPickerConfig` asks for: one built from its `flowControl`
 * block and plugins when the `flowControl` feature gate is on, otherwise `undefined` (the picker
 * then uses the legacy admission controller, as llm-d does without the gate).
 * @example
 * ```ts
 * const registry = createDefaultRegistry().registerPack(flowControlPack);
 * const loaded = loadConfig(yamlText, { registry, pool });
 * const picker = new EndpointPicker({ pool, config: loaded, admission: flowControllerForConfig(loaded, { pool }) });
 * ```
 * @public
 * @category Controller
 */
export function flowControllerForConfig(
  loaded: Pick<LoadedConfig, 'featureGates' | 'flowControl' | 'plugins'>,
  options: Omit<FlowControllerOptions, 'config' | 'plugins'>,
): FlowController | undefined {
  if (!loaded.featureGates.includes('flowControl')) return undefined;
  return new FlowController({ ...options, config: loaded.flowControl, plugins: loaded.plugins });
}
