import { EventEmitter } from 'eventemitter3';
import { SwitchyardError, systemClock, type Clock, type EndpointPool, type EndpointSpec, type ModelRewriteStore, type ObjectiveStore } from '@switchyard/core';
import { createKubeClient, type KubeClient } from '../client/kube-client.js';
import { EndpointJoiner, type EndpointProbe } from '../discovery/endpoint-joiner.js';
import { PoolDiscovery, type PoolSource } from '../discovery/pool-discovery.js';
import { INFERENCE_POOL_GROUP, checkTargetPorts } from '../discovery/pool-spec.js';
import { LeaseElector, eppLeaseName } from '../leader/lease-elector.js';
import { KubernetesMetrics } from '../metrics/kubernetes-metrics.js';
import type { BaseModelMap } from '../resources/base-model-map.js';
import { ModelMappingWatch } from '../resources/model-mapping-watch.js';
import { ObjectiveWatch } from '../resources/objective-watch.js';
import { parseLabelSelector } from '../selectors/label-selector.js';

/**
 * Options of {@link startKubernetes}: the discovery flags of `switchyard-epp` and
 * `switchyard-gateway` (llm-d's names), plus what to feed.
 * @public
 * @category Startup
 */
export interface KubernetesOptions {
  /** InferencePool to follow (`--pool-name`). Exactly one of this and `endpointSelector`. */
  readonly poolName?: string | undefined;
  /** `--pool-namespace`; default `$NAMESPACE`, then the kubeconfig context's, then `default`. */
  readonly poolNamespace?: string | undefined;
  /** `--pool-group`. @defaultValue 'inference.networking.k8s.io' */
  readonly poolGroup?: string | undefined;
  /** `--endpoint-selector`: select pods directly (full label-selector syntax). */
  readonly endpointSelector?: string | undefined;
  /** `--endpoint-target-ports` (1–8), required with `endpointSelector`. */
  readonly endpointTargetPorts?: readonly number[] | undefined;
  /** `--kubeconfig`; else `KUBECONFIG`, `~/.kube/config`, in-cluster. */
  readonly kubeconfig?: string | undefined;
  /** `--ha-enable-leader-election`. */
  readonly leaderElection?: boolean | undefined;
  /** Lease timings (llm-d: 15 s / 10 s / 2 s) and identity. */
  readonly lease?: { readonly durationMs?: number; readonly renewDeadlineMs?: number; readonly retryPeriodMs?: number; readonly identity?: string } | undefined;
  /** The pool to fill. */
  readonly pool: EndpointPool;
  /** Filled live from InferenceObjectives (pool mode only, like llm-d). */
  readonly objectives?: ObjectiveStore | undefined;
  /** Filled live from InferenceModelRewrites (pool mode only). */
  readonly rewrites?: ModelRewriteStore | undefined;
  /**
   * Filled live from the namespace's IPP model-mapping ConfigMaps (label
   * `inference.llm-d.ai/ipp-managed: "true"`), in both modes; feed it to `baseModelHeaderPack`.
   */
  readonly modelMappings?: BaseModelMap | undefined;
  /** First scrape before an endpoint joins; `false` to join at once. */
  readonly probe?: EndpointProbe | false | undefined;
  /** Applied to each endpoint before it joins (e.g. the config's metrics port). */
  readonly prepare?: ((spec: EndpointSpec) => EndpointSpec) | undefined;
  /** App protocols the caller can serve (`spec.appProtocol`). @defaultValue ['http'] */
  readonly supportedProtocols?: readonly string[] | undefined;
  /** A client to use instead of loading the kubeconfig. */
  readonly client?: KubeClient | undefined;
  readonly metrics?: KubernetesMetrics | undefined;
  readonly clock?: Clock | undefined;
  readonly log?: ((line: string) => void) | undefined;
  /** Environment read for `NAMESPACE`. @defaultValue process.env */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Informer restart backoff start. */
  readonly initialBackoffMs?: number | undefined;
}

/**
 * Events of {@link RunningKubernetes}. @public
 * @category Startup
 */
export interface RunningKubernetesEvents {
  /** Readiness changed (see {@link RunningKubernetes.ready}). */
  readiness: [ready: boolean];
}

/**
 * Kubernetes discovery running for one pool.
 * @public
 * @category Startup
 */
export interface RunningKubernetes extends EventEmitter<RunningKubernetesEvents> {
  readonly namespace: string;
  /** Pool name (the InferencePool's, or `--pool-name`/`epp` in selector mode). */
  readonly poolName: string;
  readonly discovery: PoolDiscovery;
  readonly objectives: ObjectiveWatch | undefined;
  /** The IPP ConfigMap watch, when `modelMappings` was given. */
  readonly modelMappings: ModelMappingWatch | undefined;
  readonly elector: LeaseElector | undefined;
  readonly metrics: KubernetesMetrics;
  /**
   * Readiness as llm-d's health check computes it: pool synced, this process is the leader (with
   * leader election), the pool's appProtocol is supported, and not draining.
   */
  readonly ready: boolean;
  /** SIGTERM: readiness off at once and the Lease released; discovery keeps running. */
  drain(): Promise<void>;
  /** Stops everything (releases the Lease first). */
  close(): Promise<void>;
}

function invalid(message: string): SwitchyardError {
  return new SwitchyardError('CONFIG_INVALID', message);
}

/** Validates the flag combination and resolves where the pool comes from. */
function poolSource(o: KubernetesOptions, namespace: string): { source: PoolSource; name: string } {
  const hasPool = o.poolName !== undefined && o.poolName !== '';
  const hasSelector = o.endpointSelector !== undefined && o.endpointSelector !== '';
  if (hasPool === hasSelector) throw invalid('--pool-name and --endpoint-selector: give exactly one');
  if (hasPool) {
    const group = o.poolGroup ?? INFERENCE_POOL_GROUP;
    if (group !== INFERENCE_POOL_GROUP) throw invalid(`--pool-group: only ${INFERENCE_POOL_GROUP} (v1) is supported, got "${group}"`);
    return { source: { kind: 'inference-pool', name: o.poolName ?? '', group }, name: o.poolName ?? '' };
  }
  if (o.endpointTargetPorts === undefined) throw invalid('--endpoint-target-ports: required with --endpoint-selector');
  const targetPorts = checkTargetPorts([...new Set(o.endpointTargetPorts)], '--endpoint-target-ports');
  const selector = parseLabelSelector(o.endpointSelector ?? '', '--endpoint-selector');
  const name = 'epp';
  return { source: { kind: 'selector', spec: { namespace, name, selector, targetPorts } }, name };
}

/**
 * Starts following a pool on Kubernetes: pods → ranked endpoints in `options.pool` (each joining
 * after its first scrape), InferenceObjectives and InferenceModelRewrites into the stores, and
 * Lease election when asked. Resolves once the first lists were applied (or failed: the
 * informers keep retrying with backoff, and readiness stays off until the pool is synced).
 * @throws SwitchyardError `CONFIG_INVALID` for a bad flag combination, selector, port list or kubeconfig
 * @public
 * @category Startup
 */
export async function startKubernetes(options: KubernetesOptions): Promise<RunningKubernetes> {
  const env = options.env ?? process.env;
  const clock = options.clock ?? systemClock;
  const log = options.log;
  const client = options.client ?? (await createKubeClient({ kubeconfig: options.kubeconfig }));
  const namespace = options.poolNamespace ?? env.NAMESPACE ?? client.contextNamespace ?? 'default';
  const { source, name } = poolSource(options, namespace);
  const metrics = options.metrics ?? new KubernetesMetrics({ clock });
  const joiner = new EndpointJoiner({
    pool: options.pool,
    probe: options.probe,
    clock,
    onCounts: (ready, pending) => {
      metrics.endpoints.set({ pool: name, state: 'ready' }, ready);
      metrics.endpoints.set({ pool: name, state: 'pending' }, pending);
    },
  });
  const common = { client, clock, metrics, log, initialBackoffMs: options.initialBackoffMs };
  const discovery = new PoolDiscovery({ ...common, namespace, source, joiner, prepare: options.prepare });
  const objectives =
    source.kind === 'inference-pool' && (options.objectives !== undefined || options.rewrites !== undefined)
      ? new ObjectiveWatch({ ...common, namespace, pool: { name, group: source.group }, objectives: options.objectives, rewrites: options.rewrites })
      : undefined;
  const modelMappings = options.modelMappings === undefined ? undefined : new ModelMappingWatch({ ...common, namespace, map: options.modelMappings });
  const elector = options.leaderElection === true ? new LeaseElector({ client, clock, metrics, log, namespace, name: eppLeaseName(namespace, name), identity: options.lease?.identity, leaseDurationMs: options.lease?.durationMs, renewDeadlineMs: options.lease?.renewDeadlineMs, retryPeriodMs: options.lease?.retryPeriodMs }) : undefined;
  const protocols = options.supportedProtocols ?? ['http'];
  let draining = false;
  let lastReady = false;
  const events = new EventEmitter<RunningKubernetesEvents>();
  const computeReady = (): boolean => {
    const proto = discovery.spec?.appProtocol;
    return discovery.synced && discovery.spec !== undefined && (elector === undefined || elector.isLeader) && (proto === undefined || protocols.includes(proto)) && !draining;
  };
  const update = (): void => {
    const ready = computeReady();
    if (ready === lastReady) return;
    lastReady = ready;
    log?.(`kubernetes: readiness ${ready ? 'SERVING' : 'NOT_SERVING'}`);
    events.emit('readiness', ready);
  };
  discovery.on('synced', update);
  discovery.on('pool', (spec) => {
    if (spec?.appProtocol !== undefined && !protocols.includes(spec.appProtocol)) log?.(`kubernetes: pool appProtocol ${spec.appProtocol} is not supported here (${protocols.join(', ')}): NOT_SERVING`);
    update();
  });
  elector?.on('elected', update);
  elector?.on('lost', update);
  // The standby keeps its pod list, objectives and metrics live (llm-d's haPopulateNonLeaderDatastore).
  await Promise.all([discovery.start(), objectives?.start(), modelMappings?.start()]);
  elector?.start();
  update();
  let closed = false;
  const drain = async (): Promise<void> => {
    draining = true;
    update();
    await elector?.release();
  };
  return Object.assign(events, {
    namespace,
    poolName: name,
    discovery,
    objectives,
    modelMappings,
    elector,
    metrics,
    get ready() {
      return computeReady();
    },
    drain,
    async close() {
      if (closed) return;
      closed = true;
      await drain();
      joiner.close();
      await Promise.all([discovery.stop(), objectives?.stop(), modelMappings?.stop()]);
    },
  });
}
