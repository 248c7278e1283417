import type { Registry } from 'prom-client';
import type { AdmissionController } from '../admission/types.js';
import { systemClock, type Clock } from '../clock/clock.js';
import { loadConfig, type LoadedConfig } from '../config/loader.js';
import type { EndpointPool } from '../endpoints/pool.js';
import type { SchedulerMetrics } from '../observability/metrics.js';
import { EndpointPicker } from '../picker/endpoint-picker.js';
import type { IfAvailableOptions } from '../picker/if-available.js';
import type { ModelRewriteResolver, ObjectiveLookup } from '../picker/lookups.js';
import { createDefaultRegistry } from '../registry/default-registry.js';
import type { PluginPack } from '../registry/plugin-pack.js';
import type { PluginRegistry } from '../registry/plugin-registry.js';
import type { SharedState } from '../state/types.js';
import { abandonPlugins, configPlugins } from '../scheduling/close-plugins.js';
import { legacyAdmissionDetector } from './legacy-detector.js';

/**
 * Options of {@link createPickerFromConfig}.
 * @category Assembly
 * @public
 */
export interface PickerFromConfigOptions {
  /** An `EndpointPickerConfig` (YAML or JSON text, or a parsed document); absent: llm-d's defaults. */
  readonly config?: string | object | undefined;
  /** The pool the picker schedules over (plugins and admission watch it). */
  readonly pool: EndpointPool;
  /** Plugin packs to add, in order (prefix-index, flow-control, your own). @defaultValue none */
  readonly packs?: readonly PluginPack[] | undefined;
  /** The built-ins the packs extend; cloned, never changed. @defaultValue `createDefaultRegistry()` */
  readonly registry?: PluginRegistry | undefined;
  /** Time source for plugins, admission and the picker. @defaultValue `systemClock` */
  readonly clock?: Clock | undefined;
  /** Random source of the picker (weighted rewrites, random picks). @defaultValue `Math.random` */
  readonly random?: (() => number) | undefined;
  /** The picker's metrics (`llm_d_epp_*`); absent: none. */
  readonly metrics?: SchedulerMetrics | undefined;
  /** Where the admission controller registers its metrics, or false for none. @defaultValue false */
  readonly admissionMetrics?: Registry | false | undefined;
  /** Pool name for metric labels. */
  readonly poolName?: string | undefined;
  /** InferenceObjective lookup (priorities). */
  readonly objectives?: ObjectiveLookup | undefined;
  /** InferenceModelRewrite resolver. */
  readonly rewrites?: ModelRewriteResolver | undefined;
  /** Allow plugin types marked experimental. @defaultValue false */
  readonly allowExperimental?: boolean | undefined;
  /** `Prefer: if-available` handling; wins over the config's `switchyard.ifAvailable`. @defaultValue off */
  readonly ifAvailable?: IfAvailableOptions | undefined;
  /**
   * State shared with the other replicas (routing history, session bindings), handed to every
   * plugin. Attach `pool` to it yourself (`attachPool`) to share in-flight load. @defaultValue none
   */
  readonly sharedState?: SharedState | undefined;
}

/**
 * A running picker and what it was built from.
 * @category Assembly
 * @public
 */
export interface PickerFromConfig {
  /** The picker; `picker.close()` stops its admission controller and closes its plugins. */
  readonly picker: EndpointPicker;
  /** The loaded configuration (request parsers, data-layer settings, effective document). */
  readonly config: LoadedConfig;
  /** The admission controller a pack created for this config, or undefined (legacy admission). */
  readonly admission: AdmissionController | undefined;
  /** The registry the config was loaded with (built-ins plus the packs). */
  readonly registry: PluginRegistry;
}

/**
 * Turns a config into a running picker, the one way every runner does it (the HTTP gateway, the
 * EPP, the simulator): registers the packs over the built-ins (a pack's type replaces a built-in
 * of the same type; two packs may not share a type), loads the config with llm-d's defaulting
 * (plus the packs' default types), lets the first pack whose admission factory answers create the
 * admission controller (none answering: legacy admission over the detector the config names in
 * `flowControl.saturationDetector`, as llm-d does with the gate off), and builds the `EndpointPicker`. When any step throws, whatever was
 * already created (plugins holding sockets, the admission controller) is closed and the error is
 * rethrown.
 * @example
 * ```ts
 * import { flowControlPack } from '@switchyard/flow-control';
 * import { prefixIndexPack } from '@switchyard/prefix-index';
 * const { picker, config } = createPickerFromConfig({ config: yamlText, pool, packs: [prefixIndexPack(), flowControlPack] });
 * ```
 * @throws SwitchyardError `CONFIG_INVALID` naming the path and the problem, or a pack clash
 * @category Assembly
 * @public
 */
export function createPickerFromConfig(options: PickerFromConfigOptions): PickerFromConfig {
  const clock = options.clock ?? systemClock;
  const { pool } = options;
  const registry = (options.registry ?? createDefaultRegistry()).clone();
  for (const pack of options.packs ?? []) registry.registerPack(pack);
  const config = loadConfig(options.config, { registry, pool, clock, allowExperimental: options.allowExperimental, sharedState: options.sharedState, metrics: options.metrics?.registry });
  let admission: AdmissionController | undefined;
  try {
    const context = { pool, clock, config, poolName: options.poolName, metrics: options.admissionMetrics ?? false };
    for (const pack of registry.packs()) {
      admission = pack.admission?.(context);
      if (admission !== undefined) break;
    }
    const picker = new EndpointPicker({
      pool,
      config,
      clock,
      admission,
      // Without a pack's controller, legacy admission sheds on the config's detector (llm-d).
      saturationDetector: admission === undefined ? legacyAdmissionDetector(config) : undefined,
      metrics: options.metrics,
      poolName: options.poolName,
      random: options.random,
      objectives: options.objectives,
      rewrites: options.rewrites,
      ifAvailable: options.ifAvailable ?? config.switchyard?.ifAvailable,
    });
    return { picker, config, admission, registry };
  } catch (error) {
    // Plugins may hold sockets (ZMQ subscribers) or timers that would keep the process alive.
    Promise.resolve(admission?.close?.()).catch(() => undefined);
    abandonPlugins(configPlugins(config));
    throw error;
  }
}
