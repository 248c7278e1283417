import { SwitchyardError, type PluginPack } from '@switchyard/core';
import { withScrapePort } from '@switchyard/core/internal';
import type { BaseModelMap, KubernetesCliFlags, KubernetesMetrics } from '@switchyard/kubernetes';
import type { RunningEpp } from '../epp/start-epp.js';

/**
 * The Kubernetes discovery and leader-election flags (llm-d's names). They are declared here so
 * the command line parses without `@switchyard/kubernetes` (an optional peer); that package
 * validates them, is loaded only when one is given, and holds their one definition
 * (`KUBERNETES_FLAGS`), which a test checks this copy and {@link EPP_KUBERNETES_USAGE} against.
 * @public
 */
export const EPP_KUBERNETES_FLAGS = {
  'pool-name': { type: 'string' },
  'pool-namespace': { type: 'string' },
  'pool-group': { type: 'string' },
  'endpoint-selector': { type: 'string' },
  'endpoint-target-ports': { type: 'string' },
  kubeconfig: { type: 'string' },
  'ha-enable-leader-election': { type: 'boolean' },
  'ha-lease-duration': { type: 'string' },
  'ha-renew-deadline': { type: 'string' },
  'ha-retry-period': { type: 'string' },
  'drain-timeout': { type: 'string' },
} as const;

/** The `--help` lines of {@link EPP_KUBERNETES_FLAGS} (`kubernetesCliUsage('epp')`). @public */
export const EPP_KUBERNETES_USAGE = `  --pool-name NAME          follow this InferencePool (inference.networking.k8s.io/v1)
  --pool-namespace NS       namespace of the pool, its pods, objectives, ConfigMaps and the Lease
                            (default: $NAMESPACE, then the kubeconfig context, then default)
  --pool-group GROUP        InferencePool API group (only inference.networking.k8s.io)
  --endpoint-selector SEL   instead of a pool: select model-server pods by label selector
  --endpoint-target-ports P comma-separated ports (1-8), required with --endpoint-selector
  --kubeconfig FILE         kubeconfig (default: $KUBECONFIG, ~/.kube/config, in-cluster)
  --ha-enable-leader-election
                            elect a leader on Lease epp-<ns>-<pool>.llm-d.ai; readiness is SERVING
                            only on the leader, standbys still route
  --ha-lease-duration D     how long a Lease is valid without renewal (default 15s, whole seconds)
  --ha-renew-deadline D     a leader that cannot renew for this long steps down (default 10s)
  --ha-retry-period D       interval of acquire and renew attempts (default 2s)
  --drain-timeout D         on SIGTERM: NOT_SERVING and the Lease released at once, ext_proc keeps
                            serving this long (default 30s)
`;

/** Raw values of the Kubernetes flags (`--pool-name`...), by flag name. @public */
export type KubernetesFlagValues = Readonly<Record<string, string | boolean | undefined>>;

/** Picks the Kubernetes flags out of the parsed values. @public */
export function kubernetesFlagValues(values: Readonly<Record<string, unknown>>): KubernetesFlagValues {
  const out: Record<string, string | boolean | undefined> = {};
  for (const k of Object.keys(EPP_KUBERNETES_FLAGS)) {
    const v = values[k];
    if (typeof v === 'string' || typeof v === 'boolean') out[k] = v;
  }
  return out;
}

/** The `@switchyard/kubernetes` module. @public */
export type KubernetesModule = typeof import('@switchyard/kubernetes');

/**
 * `@switchyard/kubernetes` loaded for the CLI: the validated flags, and the IPP model mappings
 * with the plugin pack that turns them into the `x-gateway-base-model-name` header (give `packs`
 * to `startEpp`).
 * @public
 */
export interface LoadedKubernetes {
  readonly k8s: KubernetesModule;
  readonly parsed: KubernetesCliFlags;
  readonly mappings: BaseModelMap;
  readonly packs: readonly PluginPack[];
}

/**
 * Loads `@switchyard/kubernetes` and validates the flags with it; undefined when no Kubernetes
 * flag was given.
 * @throws SwitchyardError `CONFIG_INVALID` for bad flags or a missing package
 * @public
 */
export async function loadKubernetes(flags: KubernetesFlagValues): Promise<LoadedKubernetes | undefined> {
  if (!wantsKubernetes(flags)) return undefined;
  let k8s: KubernetesModule;
  try {
    k8s = await import('@switchyard/kubernetes');
  } catch (err) {
    throw new SwitchyardError('CONFIG_INVALID', 'Kubernetes discovery flags need @switchyard/kubernetes and @kubernetes/client-node installed', { cause: err });
  }
  const parsed = k8s.parseKubernetesFlags(flags);
  if (parsed === undefined) throw new SwitchyardError('CONFIG_INVALID', '--drain-timeout: needs --pool-name or --endpoint-selector');
  const mappings = new k8s.BaseModelMap();
  return { k8s, parsed, mappings, packs: [k8s.baseModelHeaderPack(mappings)] };
}

/** True when a discovery flag asks for Kubernetes. @public */
export function wantsKubernetes(flags: KubernetesFlagValues): boolean {
  return Object.values(flags).some((v) => v !== undefined);
}

/**
 * Follows the pool on Kubernetes for a started EPP: pods into `epp.pool`, objectives and rewrites
 * into the picker's stores, IPP ConfigMaps into `kube.mappings`, readiness (and leadership) into
 * the gRPC health service.
 * @returns what the CLI drains on SIGTERM, and the drain period
 */
export async function attachKubernetes(epp: RunningEpp, kube: LoadedKubernetes, metrics: KubernetesMetrics, log: (line: string) => void): Promise<{ drain(): Promise<void>; close(): Promise<void> }> {
  const { k8s, parsed } = kube;
  const scrape = epp.config.dataLayerSettings.scrape;
  const running = await k8s.startKubernetes({
    ...parsed.discovery,
    modelMappings: kube.mappings,
    pool: epp.pool,
    objectives: epp.objectives,
    rewrites: epp.rewrites,
    metrics,
    prepare: (spec) => withScrapePort(spec, scrape),
    probe: epp.effective.scrapeIntervalMs === false ? false : k8s.httpEndpointProbe({ path: scrape.path, scheme: scrape.scheme }),
    log,
  });
  epp.health.setReady(running.ready);
  running.on('readiness', (ready) => { epp.health.setReady(ready); });
  return { drain: () => running.drain(), close: () => running.close() };
}
