import { SwitchyardError, type PluginPack } from '@switchyard/core';
import { BaseModelMap } from '../resources/base-model-map.js';
import { baseModelHeaderPack } from '../resources/base-model-header.js';
import { startKubernetes, type KubernetesOptions, type RunningKubernetes } from '../start/start-kubernetes.js';
import { KUBERNETES_FLAGS, type KubernetesCli } from './flag-definitions.js';
import { parseKubernetesFlags, type KubernetesCliFlags, type KubernetesCliValues } from './kubernetes-flags.js';

/**
 * What a CLI hands to {@link KubernetesCliDiscovery.start}: the picker's pool and stores it fills,
 * and the adapter's own hooks (how an endpoint is scraped before it joins).
 * @public
 * @category CLI flags
 */
export type KubernetesCliTarget = Pick<KubernetesOptions, 'pool' | 'objectives' | 'rewrites' | 'metrics' | 'prepare' | 'probe' | 'log'>;

/**
 * Kubernetes discovery as `switchyard-epp` and `switchyard-gateway` set it up from their flags:
 * the validated flags, the IPP model mappings (filled once started) with the plugin pack that turns
 * them into the `x-gateway-base-model-name` header, and `start`, which follows the pool.
 * @public
 * @category CLI flags
 */
export interface KubernetesCliDiscovery {
  /** The validated flags. */
  readonly flags: KubernetesCliFlags;
  /**
   * Base models and adapters of the namespace's IPP ConfigMaps, kept live once started: the
   * header's lookup, and the model names a gateway serves (`names()`, `change` events).
   */
  readonly modelMappings: BaseModelMap;
  /** Give these to the picker (`startEpp`, `createGatewayFromConfig`): the base-model header. */
  readonly packs: readonly PluginPack[];
  /** Follows the pool into `target` (pods, objectives and rewrites, ConfigMaps, the Lease). */
  start(target: KubernetesCliTarget): Promise<RunningKubernetes>;
}

/**
 * Picks the Kubernetes flags `cli` accepts out of `parseArgs` values (the others are not read).
 * @public
 * @category CLI flags
 */
export function kubernetesFlagValues(values: Readonly<Record<string, unknown>>, cli: KubernetesCli): KubernetesCliValues {
  const out: Record<string, string | boolean | undefined> = {};
  for (const f of KUBERNETES_FLAGS) {
    const v = values[f.name];
    if (f.clis.includes(cli) && (typeof v === 'string' || typeof v === 'boolean')) out[f.name] = v;
  }
  return out;
}

/**
 * True when any Kubernetes flag was given. @public
 * @category CLI flags
 */
export function wantsKubernetes(values: KubernetesCliValues): boolean {
  return Object.values(values).some((v) => v !== undefined);
}

/**
 * Validates the Kubernetes flags of a CLI; undefined when none was given (static endpoints).
 * @throws SwitchyardError `CONFIG_INVALID` naming the bad flag (a flag without `--pool-name` or
 *   `--endpoint-selector`, a bad duration, selector or port list)
 * @public
 * @category CLI flags
 */
export function kubernetesCliDiscovery(values: KubernetesCliValues): KubernetesCliDiscovery | undefined {
  if (!wantsKubernetes(values)) return undefined;
  const flags = parseKubernetesFlags(values);
  // parseKubernetesFlags names every other stray flag itself.
  if (flags === undefined) throw new SwitchyardError('CONFIG_INVALID', '--drain-timeout: needs --pool-name or --endpoint-selector');
  const modelMappings = new BaseModelMap();
  return {
    flags,
    modelMappings,
    packs: [baseModelHeaderPack(modelMappings)],
    start: (target) => startKubernetes({ ...flags.discovery, ...target, modelMappings }),
  };
}
