import { resourceFromManifest, systemClock, type Clock, type ModelRewriteStore, type ObjectiveStore, type PoolRef } from '@switchyard/core';
import type { KubeClient } from '../client/kube-client.js';
import { ResourceWatcher } from '../client/resource-watcher.js';
import { INFERENCE_POOL_GROUP } from '../discovery/pool-spec.js';
import type { KubernetesMetrics } from '../metrics/kubernetes-metrics.js';
import type { KubeObject } from './types.js';

/**
 * The API group of InferenceObjective / InferenceModelRewrite (read first). @public
 * @category Resource watches
 */
export const OBJECTIVES_GROUP = 'llm-d.ai';
/**
 * The older group, used only when {@link OBJECTIVES_GROUP} is not installed. @public
 * @category Resource watches
 */
export const OBJECTIVES_GROUP_LEGACY = 'inference.networking.x-k8s.io';
const VERSION = 'v1alpha2';

/**
 * Options of {@link ObjectiveWatch}.
 * @public
 * @category Resource watches
 */
export interface ObjectiveWatchOptions {
  readonly client: KubeClient;
  readonly namespace: string;
  /** Only objects whose `poolRef` names this pool (and group) apply. */
  readonly pool: { readonly name: string; readonly group?: string | undefined };
  /** Filled live with the pool's InferenceObjectives. */
  readonly objectives?: ObjectiveStore | undefined;
  /** Filled live with the pool's InferenceModelRewrites. */
  readonly rewrites?: ModelRewriteStore | undefined;
  readonly clock?: Clock | undefined;
  readonly metrics?: KubernetesMetrics | undefined;
  readonly log?: ((line: string) => void) | undefined;
  readonly initialBackoffMs?: number | undefined;
}

/**
 * Picks the API group to watch, as llm-d does: `llm-d.ai/v1alpha2` when served (objects of the
 * older group are then ignored), else `inference.networking.x-k8s.io/v1alpha2`, else none.
 * @public
 */
export async function objectivesGroup(client: KubeClient): Promise<string | undefined> {
  const served = await client.groupVersions();
  if (served.has(`${OBJECTIVES_GROUP}/${VERSION}`)) return OBJECTIVES_GROUP;
  if (served.has(`${OBJECTIVES_GROUP_LEGACY}/${VERSION}`)) return OBJECTIVES_GROUP_LEGACY;
  return undefined;
}

function refMatches(ref: PoolRef | undefined, pool: ObjectiveWatchOptions['pool']): boolean {
  if (ref === undefined) return false;
  return ref.name === pool.name && (ref.group ?? INFERENCE_POOL_GROUP) === (pool.group ?? INFERENCE_POOL_GROUP);
}

/**
 * Watches the pool namespace's InferenceObjectives and InferenceModelRewrites and keeps the
 * picker's stores equal to the ones whose `poolRef` is this pool: priorities and rewrites change
 * routing as soon as the watch event arrives. A malformed object is logged and left out.
 * @public
 * @category Resource watches
 */
export class ObjectiveWatch {
  readonly #o: ObjectiveWatchOptions;
  readonly #watchers: ResourceWatcher<KubeObject>[] = [];
  #group: string | undefined;

  constructor(options: ObjectiveWatchOptions) {
    this.#o = options;
  }

  /** The group being watched, once started (undefined: neither CRD is installed). */
  get group(): string | undefined {
    return this.#group;
  }

  /** Discovers the group and starts both watches; resolves after their first lists. */
  async start(): Promise<void> {
    this.#group = await objectivesGroup(this.#o.client);
    if (this.#group === undefined) {
      this.#o.log?.('kubernetes: no InferenceObjective / InferenceModelRewrite CRDs installed; objectives and rewrites stay as configured');
      return;
    }
    const base = `/apis/${this.#group}/${VERSION}/namespaces/${encodeURIComponent(this.#o.namespace)}`;
    const common = { client: this.#o.client, clock: this.#o.clock ?? systemClock, metrics: this.#o.metrics, log: this.#o.log, initialBackoffMs: this.#o.initialBackoffMs };
    if (this.#o.objectives !== undefined) this.#watchers.push(this.#follow(new ResourceWatcher({ ...common, path: `${base}/inferenceobjectives`, resource: 'inferenceobjectives' }), 'InferenceObjective'));
    if (this.#o.rewrites !== undefined) this.#watchers.push(this.#follow(new ResourceWatcher({ ...common, path: `${base}/inferencemodelrewrites`, resource: 'inferencemodelrewrites' }), 'InferenceModelRewrite'));
    await Promise.all(this.#watchers.map((w) => w.start()));
  }

  async stop(): Promise<void> {
    await Promise.all(this.#watchers.map((w) => w.stop()));
  }

  #follow(w: ResourceWatcher<KubeObject>, kind: string): ResourceWatcher<KubeObject> {
    // List items may come without `kind`; the collection says what they are.
    w.on('upsert', (obj) => { this.#apply({ ...obj, kind }); });
    w.on('delete', (obj) => { this.#remove({ ...obj, kind }); });
    return w;
  }

  #apply(obj: KubeObject): void {
    let parsed;
    try {
      parsed = resourceFromManifest(obj, `${obj.kind ?? 'object'} ${this.#o.namespace}/${obj.metadata?.name ?? ''}`);
    } catch (err) {
      this.#o.log?.(`kubernetes: ignoring ${err instanceof Error ? err.message : String(err)}`);
      this.#remove(obj);
      return;
    }
    if (parsed === undefined) return;
    if (parsed.kind === 'InferenceObjective') {
      // A poolRef that no longer names this pool removes the objective (llm-d's reconciler does the same).
      if (refMatches(parsed.resource.poolRefs?.[0], this.#o.pool)) this.#o.objectives?.set(parsed.resource);
      else this.#o.objectives?.delete(parsed.resource.name);
    } else if (refMatches(parsed.resource.poolRef, this.#o.pool)) this.#o.rewrites?.set(parsed.resource);
    else this.#o.rewrites?.delete(parsed.resource.name);
  }

  #remove(obj: KubeObject): void {
    const name = obj.metadata?.name ?? '';
    if (obj.kind === 'InferenceModelRewrite') this.#o.rewrites?.delete(name);
    else this.#o.objectives?.delete(name);
  }
}
