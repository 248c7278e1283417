import { SwitchyardError, type PluginPack } from '@switchyard/core';
import type { Gateway } from '../config/from-config.js';

/**
 * The Kubernetes discovery flags (llm-d's names), declared here so the command line parses
 * without `@switchyard/kubernetes` (an optional peer); that package validates them, is loaded only
 * when one is given, and holds their one definition (`KUBERNETES_FLAGS`), which a test checks this
 * copy and {@link GATEWAY_KUBERNETES_USAGE} against.
 * @public
 */
export const GATEWAY_KUBERNETES_FLAGS = {
  'pool-name': { type: 'string' },
  'pool-namespace': { type: 'string' },
  'pool-group': { type: 'string' },
  'endpoint-selector': { type: 'string' },
  'endpoint-target-ports': { type: 'string' },
  kubeconfig: { type: 'string' },
} as const;

/** The `--help` lines of {@link GATEWAY_KUBERNETES_FLAGS} (`kubernetesCliUsage('gateway')`). @public */
export const GATEWAY_KUBERNETES_USAGE = `  --pool-name NAME          follow this InferencePool (inference.networking.k8s.io/v1)
  --pool-namespace NS       namespace of the pool, its pods, objectives, ConfigMaps and the Lease
                            (default: $NAMESPACE, then the kubeconfig context, then default)
  --pool-group GROUP        InferencePool API group (only inference.networking.k8s.io)
  --endpoint-selector SEL   instead of a pool: select model-server pods by label selector
  --endpoint-target-ports P comma-separated ports (1-8), required with --endpoint-selector
  --kubeconfig FILE         kubeconfig (default: $KUBECONFIG, ~/.kube/config, in-cluster)
`;

/** Raw values of the Kubernetes flags (`--pool-name`...), by flag name. @public */
export type GatewayKubernetesFlags = Readonly<Record<string, string | undefined>>;

/** Picks the Kubernetes flags out of the parsed values. @public */
export function gatewayKubernetesFlags(values: Readonly<Record<string, unknown>>): GatewayKubernetesFlags {
  const out: Record<string, string | undefined> = {};
  for (const k of Object.keys(GATEWAY_KUBERNETES_FLAGS)) {
    const v = values[k];
    if (typeof v === 'string') out[k] = v;
  }
  return out;
}

/** True when a discovery flag asks for Kubernetes. @public */
export function gatewayWantsKubernetes(flags: GatewayKubernetesFlags): boolean {
  return Object.values(flags).some((v) => v !== undefined);
}

/**
 * `@switchyard/kubernetes` loaded for the gateway CLI: the plugin pack that sets
 * `x-gateway-base-model-name` from the IPP model-mapping ConfigMaps (give it to
 * `createGatewayFromConfig`), and `attach`, which starts discovery for the built gateway.
 * @public
 */
export interface GatewayKubernetes {
  readonly packs: readonly PluginPack[];
  /**
   * Follows the pool for the gateway's single pool: pods into its endpoints (each after a first
   * scrape), InferenceObjectives and InferenceModelRewrites into its picker, IPP ConfigMaps into
   * the base-model header, discovery metrics into the gateway's `/metrics`. Returns the gateway
   * with a `close()` that stops discovery first.
   */
  attach(gateway: Gateway, log: (line: string) => void): Promise<Gateway>;
}

/**
 * Loads `@switchyard/kubernetes` and validates the discovery flags with it.
 * @throws SwitchyardError `CONFIG_INVALID` for bad flags or a missing package
 */
export async function loadGatewayKubernetes(flags: GatewayKubernetesFlags): Promise<GatewayKubernetes> {
  let k8s: typeof import('@switchyard/kubernetes');
  try {
    k8s = await import('@switchyard/kubernetes');
  } catch (err) {
    throw new SwitchyardError('CONFIG_INVALID', 'Kubernetes discovery flags need @switchyard/kubernetes and @kubernetes/client-node installed', { cause: err });
  }
  const parsed = k8s.parseKubernetesFlags(flags);
  if (parsed === undefined) throw new SwitchyardError('CONFIG_INVALID', '--pool-name or --endpoint-selector: required for Kubernetes discovery');
  const mappings = new k8s.BaseModelMap();
  return {
    packs: [k8s.baseModelHeaderPack(mappings)],
    async attach(gateway, log) {
      const pool = gateway.pools[0];
      if (pool === undefined) throw new SwitchyardError('CONFIG_INVALID', '--pool-name or --endpoint-selector: the gateway has no pool to fill');
      if (gateway.pools.length !== 1) throw new SwitchyardError('CONFIG_INVALID', '--pool-name/--endpoint-selector: discovery fills one pool; the config defines gateway.pools');
      const running = await k8s.startKubernetes({
        ...parsed.discovery,
        pool: pool.source,
        objectives: pool.objectives,
        rewrites: pool.rewrites,
        modelMappings: mappings,
        metrics: new k8s.KubernetesMetrics({ registry: gateway.registry }),
        log,
      });
      return {
        ...gateway,
        async close() {
          await running.close();
          await gateway.close();
        },
      };
    },
  };
}
