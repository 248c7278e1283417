import { SwitchyardError } from '@switchyard/core';
import { KubernetesMetrics, type KubernetesCliDiscovery } from '@switchyard/kubernetes';
import type { Gateway } from '../config/from-config.js';

/**
 * Follows the pool on Kubernetes for a built gateway's single pool: pods into its endpoints (each
 * after a first scrape), InferenceObjectives and InferenceModelRewrites into its picker, IPP
 * ConfigMaps into `kube.modelMappings` (the base-model header, and the model names the gateway
 * serves when it was built with them as `modelCatalogue`), discovery metrics into the gateway's
 * `/metrics`. Returns the gateway with a `close()` that stops discovery first.
 * @throws SwitchyardError `CONFIG_INVALID` when the config defines several pools
 * @public
 */
export async function attachKubernetes(gateway: Gateway, kube: KubernetesCliDiscovery, log: (line: string) => void): Promise<Gateway> {
  const pool = gateway.pools[0];
  if (pool === undefined) throw new SwitchyardError('CONFIG_INVALID', '--pool-name or --endpoint-selector: the gateway has no pool to fill');
  if (gateway.pools.length !== 1) throw new SwitchyardError('CONFIG_INVALID', '--pool-name/--endpoint-selector: discovery fills one pool; the config defines gateway.pools');
  const running = await kube.start({
    pool: pool.source,
    objectives: pool.objectives,
    rewrites: pool.rewrites,
    metrics: new KubernetesMetrics({ registry: gateway.registry }),
    log,
  });
  return {
    ...gateway,
    async close() {
      await running.close();
      await gateway.close();
    },
  };
}
