import { EventEmitter } from 'eventemitter3';
import { systemClock, type Clock, type TimerHandle } from '@switchyard/core';
import type { KubeObject } from '../resources/types.js';
import type { KubernetesMetrics } from '../metrics/kubernetes-metrics.js';
import type { KubeClient, ListWatchLike } from './kube-client.js';

/**
 * Options of {@link ResourceWatcher}.
 * @public
 * @category API client
 */
export interface ResourceWatcherOptions {
  readonly client: KubeClient;
  /** Collection path, e.g. `/api/v1/namespaces/default/pods`. */
  readonly path: string;
  /** Name in metrics and logs, e.g. `pods`. */
  readonly resource: string;
  readonly labelSelector?: string | undefined;
  readonly fieldSelector?: string | undefined;
  readonly clock?: Clock | undefined;
  readonly metrics?: KubernetesMetrics | undefined;
  /** First restart delay after an error; doubles up to `maxBackoffMs`. @defaultValue 250 */
  readonly initialBackoffMs?: number | undefined;
  /** @defaultValue 10000 */
  readonly maxBackoffMs?: number | undefined;
  readonly log?: ((line: string) => void) | undefined;
}

/**
 * Events of {@link ResourceWatcher}.
 * @public
 * @category API client
 */
export interface ResourceWatcherEvents<T> {
  /** An object was added or changed. */
  upsert: [object: T];
  /** An object was deleted (or left the selection). */
  delete: [object: T];
  /** A full list was applied: the cache equals the server's state at that list. */
  synced: [];
  /** The informer failed and restarts after `delayMs`. */
  restart: [error: unknown, delayMs: number];
}

/**
 * A client-node informer (list, then watch from the list's resourceVersion; relist on 410) that
 * is restarted with exponential backoff after any other error, which client-node 1.4 does not do
 * (its informers stop). The cache survives restarts: known objects stay known while the API
 * server is unreachable, and the relist after reconnecting deletes only what is really gone.
 * @public
 * @category API client
 */
export class ResourceWatcher<T extends KubeObject> extends EventEmitter<ResourceWatcherEvents<T>> {
  readonly #o: ResourceWatcherOptions;
  readonly #clock: Clock;
  readonly #informer: ListWatchLike<T>;
  #stopped = true;
  #failures = 0;
  #timer: TimerHandle | undefined;
  #synced = false;

  constructor(options: ResourceWatcherOptions) {
    super();
    this.#o = options;
    this.#clock = options.clock ?? systemClock;
    this.#informer = options.client.listWatch<T>(options.path, () => this.#list(), options.labelSelector, options.fieldSelector);
    this.#informer.on('add', (o) => { this.#heard(); this.emit('upsert', o); });
    this.#informer.on('update', (o) => { this.#heard(); this.emit('upsert', o); });
    this.#informer.on('delete', (o) => { this.#heard(); this.emit('delete', o); });
    this.#informer.on('error', (err) => { this.#failed(err); });
  }

  /** True once a first list was applied. */
  get synced(): boolean {
    return this.#synced;
  }

  /** Starts listing and watching; resolves once the first list was applied or failed. */
  async start(): Promise<void> {
    if (!this.#stopped) return;
    this.#stopped = false;
    const first = new Promise<void>((resolve) => {
      const done = (): void => { this.off('synced', done); this.off('restart', done); resolve(); };
      this.on('synced', done);
      this.on('restart', done);
    });
    void this.#informer.start();
    await first;
  }

  /** The cached objects. */
  list(): T[] {
    return this.#informer.list();
  }

  /** Stops watching and any pending restart. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#informer.stop();
  }

  async #list(): Promise<{ items: T[]; metadata: { resourceVersion: string } }> {
    this.#o.metrics?.relists.inc({ resource: this.#o.resource });
    const q = { ...(this.#o.labelSelector === undefined ? {} : { labelSelector: this.#o.labelSelector }), ...(this.#o.fieldSelector === undefined ? {} : { fieldSelector: this.#o.fieldSelector }) };
    const r = await this.#o.client.list<T>(this.#o.path, q);
    // The informer applies the items right after this promise settles, in the same job; the
    // immediate callback runs after that job and its microtasks.
    setImmediate(() => {
      if (this.#stopped) return;
      this.#synced = true;
      this.#heard();
      this.emit('synced');
    });
    return { items: r.items, metadata: { resourceVersion: r.resourceVersion } };
  }

  #heard(): void {
    this.#failures = 0;
    this.#o.metrics?.synced(this.#o.resource);
  }

  #failed(err: unknown): void {
    // stop() makes client-node report an AbortError: not a failure.
    if (this.#stopped) return;
    const initial = this.#o.initialBackoffMs ?? 250;
    const delay = Math.min(this.#o.maxBackoffMs ?? 10_000, initial * 2 ** this.#failures);
    this.#failures++;
    this.#o.metrics?.watchRestarts.inc({ resource: this.#o.resource });
    this.#o.log?.(`kubernetes: watch of ${this.#o.resource} failed (${err instanceof Error ? err.message : String(err)}); restarting in ${String(delay)} ms`);
    this.emit('restart', err, delay);
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = this.#clock.setTimeout(() => {
      this.#timer = undefined;
      if (!this.#stopped) void this.#informer.start();
    }, delay);
  }
}
