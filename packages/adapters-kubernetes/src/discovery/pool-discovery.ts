import { EventEmitter } from 'eventemitter3';
import { systemClock, type Clock, type EndpointSpec } from '@switchyard/core';
import type { KubeClient } from '../client/kube-client.js';
import { ResourceWatcher } from '../client/resource-watcher.js';
import type { KubernetesMetrics } from '../metrics/kubernetes-metrics.js';
import type { InferencePoolObject, PodObject } from '../resources/types.js';
import type { EndpointJoiner } from './endpoint-joiner.js';
import { podEndpoints, type PoolSpec } from './pod-endpoints.js';
import { INFERENCE_POOL_GROUP, poolSpecFromObject, sameSelection } from './pool-spec.js';

/**
 * Where the pool comes from: an InferencePool object, or a selector and ports given directly.
 * @public
 * @category Discovery
 */
export type PoolSource =
  | { readonly kind: 'inference-pool'; readonly name: string; readonly group?: string | undefined }
  | { readonly kind: 'selector'; readonly spec: PoolSpec };

/**
 * Options of {@link PoolDiscovery}.
 * @public
 * @category Discovery
 */
export interface PoolDiscoveryOptions {
  readonly client: KubeClient;
  /** Namespace of the pool and its pods. */
  readonly namespace: string;
  readonly source: PoolSource;
  /** Receives endpoints (joins after the first scrape, leaves at once). */
  readonly joiner: EndpointJoiner;
  /** Applied to every endpoint before it joins (e.g. a metrics port from the config). */
  readonly prepare?: ((spec: EndpointSpec) => EndpointSpec) | undefined;
  readonly clock?: Clock | undefined;
  readonly metrics?: KubernetesMetrics | undefined;
  readonly log?: ((line: string) => void) | undefined;
  /** Restart backoff of the informers. */
  readonly initialBackoffMs?: number | undefined;
}

/**
 * Events of {@link PoolDiscovery}. @public
 * @category Discovery
 */
export interface PoolDiscoveryEvents {
  /** The pool's spec changed (undefined: the InferencePool is gone). */
  pool: [spec: PoolSpec | undefined];
  /** Pool and pods are in sync for the first time. */
  synced: [];
}

/**
 * Follows a pool's pods like llm-d's pod reconciler: every pod of the namespace is watched (the
 * selector is applied here, on old and new labels), a ready pod contributes one endpoint per active
 * target port, anything else contributes none. A change of the pool's selector or target ports
 * relists the pods and resyncs; the InferencePool's deletion empties the pool.
 * @public
 * @category Discovery
 */
export class PoolDiscovery extends EventEmitter<PoolDiscoveryEvents> {
  readonly #o: PoolDiscoveryOptions;
  readonly #pods: ResourceWatcher<PodObject>;
  readonly #poolWatch: ResourceWatcher<InferencePoolObject> | undefined;
  /** Endpoint ids each pod contributes now. */
  readonly #byPod = new Map<string, string[]>();
  #spec: PoolSpec | undefined;
  #synced = false;

  constructor(options: PoolDiscoveryOptions) {
    super();
    this.#o = options;
    const common = { client: options.client, clock: options.clock ?? systemClock, metrics: options.metrics, log: options.log, initialBackoffMs: options.initialBackoffMs };
    const ns = encodeURIComponent(options.namespace);
    this.#pods = new ResourceWatcher<PodObject>({ ...common, path: `/api/v1/namespaces/${ns}/pods`, resource: 'pods' });
    this.#pods.on('upsert', (pod) => { this.#reconcile(pod); });
    this.#pods.on('delete', (pod) => { this.#drop(pod.metadata?.name ?? ''); });
    this.#pods.on('synced', () => { this.#resync(this.#pods.list()); });
    if (options.source.kind === 'selector') this.#spec = options.source.spec;
    else {
      const group = options.source.group ?? INFERENCE_POOL_GROUP;
      this.#poolWatch = new ResourceWatcher<InferencePoolObject>({
        ...common,
        path: `/apis/${group}/v1/namespaces/${ns}/inferencepools`,
        resource: 'inferencepools',
        fieldSelector: `metadata.name=${options.source.name}`,
      });
      this.#poolWatch.on('upsert', (p) => { this.#poolChanged(p); });
      this.#poolWatch.on('delete', () => { this.#setSpec(undefined); });
      this.#poolWatch.on('synced', () => {
        if (this.#poolWatch?.list().length === 0) this.#setSpec(undefined);
      });
    }
  }

  /** The pool's current spec (undefined until the InferencePool is seen, or after it is deleted). */
  get spec(): PoolSpec | undefined {
    return this.#spec;
  }

  /** True once the pool (when watched) and the pods were listed. */
  get synced(): boolean {
    return this.#synced;
  }

  /** Starts the watches; resolves after the first lists (or their first failure: they retry). */
  async start(): Promise<void> {
    await this.#poolWatch?.start();
    await this.#pods.start();
    this.#markSynced();
  }

  async stop(): Promise<void> {
    await Promise.all([this.#poolWatch?.stop(), this.#pods.stop()]);
  }

  #markSynced(): void {
    if (this.#synced || !this.#pods.synced || (this.#poolWatch !== undefined && !this.#poolWatch.synced)) return;
    this.#synced = true;
    this.emit('synced');
  }

  #poolChanged(p: InferencePoolObject): void {
    try {
      this.#setSpec(poolSpecFromObject(p, this.#o.namespace));
    } catch (err) {
      // The CRD's own validation rejects such objects; keep following the last good spec.
      this.#o.log?.(`kubernetes: ignoring invalid pool: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  #setSpec(spec: PoolSpec | undefined): void {
    const relist = !sameSelection(this.#spec, spec);
    this.#spec = spec;
    this.emit('pool', spec);
    if (spec === undefined) {
      for (const pod of [...this.#byPod.keys()]) this.#drop(pod);
      return;
    }
    if (relist && this.#pods.synced) void this.#relist();
  }

  /** A fresh list of the namespace's pods, as llm-d resyncs on a selector or ports change. */
  async #relist(): Promise<void> {
    try {
      this.#o.metrics?.relists.inc({ resource: 'pods' });
      const { items } = await this.#o.client.list<PodObject>(`/api/v1/namespaces/${encodeURIComponent(this.#o.namespace)}/pods`);
      this.#resync(items);
    } catch (err) {
      // The informer's cache is current up to its last event: resync from it instead.
      this.#o.log?.(`kubernetes: pod relist failed (${err instanceof Error ? err.message : String(err)}); resyncing from the watch cache`);
      this.#resync(this.#pods.list());
    }
  }

  #resync(pods: readonly PodObject[]): void {
    const seen = new Set<string>();
    for (const pod of pods) {
      seen.add(pod.metadata?.name ?? '');
      this.#reconcile(pod);
    }
    for (const name of [...this.#byPod.keys()]) if (!seen.has(name)) this.#drop(name);
    this.#markSynced();
  }

  #reconcile(pod: PodObject): void {
    const name = pod.metadata?.name ?? '';
    const spec = this.#spec;
    const prepare = this.#o.prepare ?? ((s: EndpointSpec) => s);
    const next = spec === undefined ? [] : podEndpoints(pod, spec).map(prepare);
    const ids = next.map((s) => s.id ?? s.address);
    for (const old of this.#byPod.get(name) ?? []) if (!ids.includes(old)) this.#o.joiner.leave(old);
    for (const s of next) this.#o.joiner.join(s);
    if (ids.length === 0) this.#byPod.delete(name);
    else this.#byPod.set(name, ids);
  }

  #drop(name: string): void {
    for (const id of this.#byPod.get(name) ?? []) this.#o.joiner.leave(id);
    this.#byPod.delete(name);
  }
}
