import type { Clock } from '@switchyard/core';
import type { KubeClient } from '../client/kube-client.js';
import { ResourceWatcher } from '../client/resource-watcher.js';
import type { KubernetesMetrics } from '../metrics/kubernetes-metrics.js';
import { IPP_MANAGED_LABEL, parseModelMapping, type BaseModelMap } from './base-model-map.js';
import type { ConfigMapObject } from './types.js';

/**
 * Options of {@link ModelMappingWatch}.
 * @public
 * @category Resource watches
 */
export interface ModelMappingWatchOptions {
  readonly client: KubeClient;
  /** Namespace whose ConfigMaps are watched (IPP: `$NAMESPACE`). */
  readonly namespace: string;
  /** Filled live. */
  readonly map: BaseModelMap;
  readonly clock?: Clock | undefined;
  readonly metrics?: KubernetesMetrics | undefined;
  readonly log?: ((line: string) => void) | undefined;
  readonly initialBackoffMs?: number | undefined;
}

/**
 * Watches the IPP model-mapping ConfigMaps (label `inference.llm-d.ai/ipp-managed: "true"`) of a
 * namespace and keeps a {@link BaseModelMap} equal to them: a ConfigMap that is deleted, loses the
 * label or becomes invalid drops its mapping at once (the API server turns a label change into a
 * DELETED event on a selector watch). Invalid ConfigMaps are logged, never fatal.
 * @public
 * @category Resource watches
 */
export class ModelMappingWatch {
  readonly #o: ModelMappingWatchOptions;
  readonly #watcher: ResourceWatcher<ConfigMapObject>;

  constructor(options: ModelMappingWatchOptions) {
    this.#o = options;
    this.#watcher = new ResourceWatcher<ConfigMapObject>({
      client: options.client,
      path: `/api/v1/namespaces/${encodeURIComponent(options.namespace)}/configmaps`,
      resource: 'configmaps',
      labelSelector: `${IPP_MANAGED_LABEL}=true`,
      clock: options.clock,
      metrics: options.metrics,
      log: options.log,
      initialBackoffMs: options.initialBackoffMs,
    });
    this.#watcher.on('upsert', (cm) => { this.#apply(cm); });
    this.#watcher.on('delete', (cm) => { options.map.delete(this.#key(cm)); });
  }

  /** Starts watching; resolves after the first list (or its failure: the watch retries). */
  start(): Promise<void> {
    return this.#watcher.start();
  }

  stop(): Promise<void> {
    return this.#watcher.stop();
  }

  #key(cm: ConfigMapObject): string {
    return `${cm.metadata?.namespace ?? this.#o.namespace}/${cm.metadata?.name ?? ''}`;
  }

  #apply(cm: ConfigMapObject): void {
    const mapping = parseModelMapping(cm);
    if (typeof mapping === 'string') {
      this.#o.log?.(`kubernetes: ignoring ${mapping}`);
      this.#o.map.delete(this.#key(cm));
      return;
    }
    const before = this.#o.map.conflicts.length;
    this.#o.map.set(this.#key(cm), mapping);
    for (const c of this.#o.map.conflicts.slice(before)) this.#o.log?.(`kubernetes: model mappings: ${c}`);
  }
}
