import { SwitchyardError, withScrapePort } from '@switchyard/core';
import type { KubernetesCliFlags, KubernetesMetrics } from '@switchyard/kubernetes';
import type { RunningEpp } from '../epp/start-epp.js';

/**
 * The Kubernetes discovery and leader-election flags (llm-d's names). They are declared here so
 * the command line parses without `@switchyard/kubernetes`; that package validates them and is
 * loaded only when one is given.
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
  'drain-timeout': { type: 'string' },
} as const;

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
 * Loads `@switchyard/kubernetes` and validates the flags with it; undefined when no Kubernetes
 * flag was given.
 * @throws SwitchyardError `CONFIG_INVALID` for bad flags or a missing package
 * @public
 */
export async function loadKubernetes(flags: KubernetesFlagValues): Promise<{ k8s: KubernetesModule; parsed: KubernetesCliFlags } | undefined> {
  if (!wantsKubernetes(flags)) return undefined;
  let k8s: KubernetesModule;
  try {
    k8s = await import('@switchyard/kubernetes');
  } catch (err) {
    throw new SwitchyardError('CONFIG_INVALID', 'Kubernetes discovery flags need @switchyard/kubernetes and @kubernetes/client-node installed', { cause: err });
  }
  const parsed = k8s.parseKubernetesFlags(flags);
  if (parsed === undefined) throw new SwitchyardError('CONFIG_INVALID', '--drain-timeout: needs --pool-name or --endpoint-selector');
  return { k8s, parsed };
}

/** True when a discovery flag asks for Kubernetes. @public */
export function wantsKubernetes(flags: KubernetesFlagValues): boolean {
  return Object.values(flags).some((v) => v !== undefined);
}

/**
 * Follows the pool on Kubernetes for a started EPP: pods into `epp.pool`, objectives and rewrites
 * into the picker's stores, readiness (and leadership) into the gRPC health service.
 * @returns what the CLI drains on SIGTERM, and the drain period
 */
export async function attachKubernetes(epp: RunningEpp, k8s: KubernetesModule, parsed: KubernetesCliFlags, metrics: KubernetesMetrics, log: (line: string) => void): Promise<{ drain(): Promise<void>; close(): Promise<void> }> {
  const scrape = epp.config.dataLayerSettings.scrape;
  const running = await k8s.startKubernetes({
    ...parsed.discovery,
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
