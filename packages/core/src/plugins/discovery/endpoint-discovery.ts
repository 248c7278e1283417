import type { EndpointSpec } from '../../endpoints/types.js';
import type { LoadedConfig } from '../../config/loader.js';
import type { Plugin } from '../../scheduling/plugins.js';
import type { SwitchyardError } from '../../errors/switchyard-error.js';

/**
 * Where a discovery plugin puts the endpoints it finds: the adapter's endpoint pool (through
 * whatever the adapter adds, e.g. the metrics source's port).
 * @public
 * @category Built-in plugins
 */
export interface DiscoveryTarget {
  /** Adds or updates an endpoint (keyed by `spec.id`). */
  upsert(spec: EndpointSpec): void;
  /** Removes an endpoint the plugin added before. */
  remove(id: string): void;
  /** Told when a re-sync fails (the endpoints of the last good sync stay). */
  onError?(error: SwitchyardError): void;
}

/**
 * An llm-d `EndpointDiscovery` plugin, referenced from `dataLayer.discovery.pluginRef`: it fills
 * the pool instead of Kubernetes (llm-d's non-Kubernetes mode).
 * @public
 * @category Built-in plugins
 */
export interface EndpointDiscovery extends Plugin {
  /**
   * Syncs `target` once now, then keeps it in sync until `close()`.
   * @throws SwitchyardError `CONFIG_INVALID` when the first sync fails (the adapter does not start)
   */
  start(target: DiscoveryTarget): void;
  /** True once the first sync succeeded (llm-d's discovery Ready). */
  readonly ready: boolean;
}

/**
 * True when `p` is an {@link EndpointDiscovery}. @public
 * @category Built-in plugins
 */
export function isEndpointDiscovery(p: Plugin): p is EndpointDiscovery {
  const d = p as Partial<EndpointDiscovery>;
  return typeof d.start === 'function' && typeof d.ready === 'boolean';
}

/**
 * Starts the discovery plugin a loaded config names in `dataLayer.discovery` against `target`;
 * undefined when the config names none. The picker's `close()` stops it (it is a plugin).
 * @throws SwitchyardError `CONFIG_INVALID` from the plugin's first sync
 * @public
 * @category Built-in plugins
 */
export function startDiscovery(config: LoadedConfig, target: DiscoveryTarget): EndpointDiscovery | undefined {
  const ref = config.dataLayerSettings.discovery;
  const plugin = ref === undefined ? undefined : config.plugins.get(ref);
  if (plugin === undefined || !isEndpointDiscovery(plugin)) return undefined;
  plugin.start(target);
  return plugin;
}
