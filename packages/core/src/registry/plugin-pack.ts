import type { Registry } from 'prom-client';
import type { AdmissionController } from '../admission/types.js';
import type { Clock } from '../clock/clock.js';
import type { EndpointPool } from '../endpoints/pool.js';
import type { Plugin } from '../scheduling/plugins.js';
import type { PluginDefinition } from './types.js';

/**
 * The parts of an `EndpointPickerConfig` a pack's defaults may depend on.
 * @category Plugins
 * @public
 */
export interface ConfigSections {
  /** Enabled feature gates. */
  readonly featureGates: readonly string[];
  /** The `flowControl` block as written, if any. */
  readonly flowControl: Readonly<Record<string, unknown>> | undefined;
}

/**
 * What an admission factory gets besides the loaded config.
 * @category Plugins
 * @public
 */
export interface AdmissionFactoryContext {
  /** The pool requests are admitted to. */
  readonly pool: EndpointPool;
  /** Time source. */
  readonly clock: Clock;
  /** The config's `flowControl` block, feature gates and plugins. */
  readonly config: ConfigSections & { readonly plugins: ReadonlyMap<string, Plugin> };
  /** Pool name for metric labels, when the caller runs several pools. */
  readonly poolName: string | undefined;
  /** Where the admission controller registers its metrics, or false for none. */
  readonly metrics: Registry | false;
}

/**
 * Creates the admission controller a config asks for, or returns undefined when the config does
 * not ask for this pack's kind (the picker then uses core's legacy admission).
 * @category Plugins
 * @public
 */
export type AdmissionFactory = (context: AdmissionFactoryContext) => AdmissionController | undefined;

/**
 * A package's contribution to a picker: its plugin types, the types a config gets by default, and
 * optionally the admission controller it provides. `@switchyard/prefix-index` and
 * `@switchyard/flow-control` each export one; user packages can too. Register packs with
 * {@link PluginRegistry.registerPack} or hand them to `createPickerFromConfig`.
 * @example
 * ```ts
 * const myPack: PluginPack = { name: 'my-scorers', plugins: [myScorerDefinition] };
 * const { picker } = createPickerFromConfig({ config: yamlText, pool, packs: [flowControlPack, myPack] });
 * ```
 * @category Plugins
 * @public
 */
export interface PluginPack {
  /** Name used in error messages (usually the package name). */
  readonly name: string;
  /** Plugin definitions. A pack's type replaces a built-in of the same type; two packs may not share one. */
  readonly plugins: readonly PluginDefinition[];
  /**
   * Plugin types a config gets, with default parameters, when it declares none of that type
   * (only registered types are created).
   */
  readonly defaultTypes?: ((sections: ConfigSections) => readonly string[]) | undefined;
  /** The admission controller this pack provides, when a config asks for it. */
  readonly admission?: AdmissionFactory | undefined;
}
