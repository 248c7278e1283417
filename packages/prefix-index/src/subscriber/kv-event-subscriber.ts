import { EventEmitter } from 'eventemitter3';
import { systemClock, type Clock, type Endpoint, type EndpointPool } from '@switchyard/core';
import type { KvEventDialect } from '../kv-events/types.js';
import { createPrefixIndexMetrics, type PrefixIndexMetrics } from '../metrics/prefix-metrics.js';
import type { KvDecodeLimits } from '../kv-events/limits.js';
import { KvEventBudget, type KvEventBudgetOptions } from './event-budget.js';
import { EndpointSubscription, type KvEndpointAddress, type KvEventSink } from './endpoint-subscription.js';
import { loadZeromq, type ZmqModule } from './zmq-types.js';

/**
 * vLLM's default KV-event publisher port (data-parallel rank r publishes on port + r).
 * @public
 * @category Subscriber
 */
export const DEFAULT_KV_EVENTS_PORT = 5557;

/**
 * Options of {@link KvEventSubscriber}.
 * @public
 * @category Subscriber
 */
export interface KvEventSubscriberOptions {
  /** Where decoded batches go (a `PreciseKvIndex`). */
  readonly sink: KvEventSink;
  /** Pool to follow: endpoints are subscribed when added and dropped when removed. */
  readonly pool?: EndpointPool;
  /**
   * Address of an endpoint's publisher (and replay socket). Default: `tcp://<ip>:<port + rank>`,
   * where rank is the `-rank-<i>` suffix of the endpoint id (0 otherwise), and the replay socket
   * on `replayPort + rank` when `replayPort` is set. Return undefined to skip an endpoint.
   */
  readonly addressOf?: (endpoint: Endpoint) => KvEndpointAddress | undefined;
  /** Publisher port for the default address. Default 5557. */
  readonly port?: number;
  /** Replay port for the default address (vLLM `replay_endpoint`); no replay when absent. */
  readonly replayPort?: number;
  /** Topic prefix to subscribe to. Default `kv@`. */
  readonly topicFilter?: string;
  /** Positional layout per endpoint. Default: `sglang` for SGLang endpoints, else `vllm`. */
  readonly dialectOf?: (endpoint: Endpoint) => KvEventDialect;
  /** Replay request timeout. Default 5000 ms. */
  readonly replayTimeoutMs?: number;
  /** No new replay for this long after a failed one (llm-d: 30 s). Default 30000 ms. */
  readonly replayCooldownMs?: number;
  /** Live batches buffered while a replay runs. Default 10000. */
  readonly maxPendingBatches?: number;
  /** Bounds of each payload, checked before decoding (default: `DEFAULT_KV_DECODE_LIMITS`). */
  readonly limits?: KvDecodeLimits;
  /** Work budget shared by all endpoints, so an event flood never starves requests. */
  readonly budget?: KvEventBudgetOptions;
  /** Metrics (default: fresh ones in a private registry). */
  readonly metrics?: PrefixIndexMetrics;
  /** Time source. */
  readonly clock?: Clock;
  /** zeromq module (default: `import('zeromq')`, an optional peer dependency). */
  readonly zeromq?: ZmqModule;
}

/**
 * Events of a {@link KvEventSubscriber}.
 * @public
 * @category Subscriber
 */
export interface KvEventSubscriberEvents {
  /** A batch with sequence `seq` was applied for an endpoint (live or replayed). */
  applied: [endpointId: string, seq: number];
  /** An endpoint's cache state became unknown and was cleared. */
  reset: [endpointId: string, reason: string];
}

/**
 * Status of one subscription.
 * @public
 * @category Subscriber
 */
export interface KvSubscriptionStatus {
  /** The endpoint. */
  readonly endpointId: string;
  /** Addresses in use. */
  readonly address: KvEndpointAddress;
  /** Whether the SUB socket is connected. */
  readonly connected: boolean;
  /** Last applied sequence number. */
  readonly lastSeq: number | undefined;
}

function rankOf(endpointId: string): number {
  const m = /-rank-(\d+)$/.exec(endpointId);
  return m === null ? 0 : Number(m[1]);
}

/**
 * Subscribes to every endpoint's KV-event publisher over ZMQ (SUB socket, topic filter `kv@`,
 * 3-frame messages `[topic, seq, payload]`), tracks sequence numbers, asks the engine's replay
 * socket for missed batches when a gap appears, and clears an endpoint's cache state when its
 * stream restarts or the connection drops. Bad input is counted and logged once per cause; it
 * never throws out of the receive loop. Create with {@link KvEventSubscriber.create}.
 * @public
 * @category Subscriber
 */
export class KvEventSubscriber extends EventEmitter<KvEventSubscriberEvents> {
  readonly #options: KvEventSubscriberOptions;
  readonly #zmq: ZmqModule;
  readonly #subs = new Map<string, EndpointSubscription>();
  readonly #metrics: PrefixIndexMetrics;
  readonly #clock: Clock;
  readonly #budget: KvEventBudget;
  readonly #unfollow: (() => void)[] = [];
  #closed = false;

  private constructor(options: KvEventSubscriberOptions, zmq: ZmqModule) {
    super();
    this.#options = options;
    this.#zmq = zmq;
    this.#metrics = options.metrics ?? createPrefixIndexMetrics();
    this.#clock = options.clock ?? systemClock;
    this.#budget = new KvEventBudget(options.budget ?? {}, this.#clock);
  }

  /**
   * Loads zeromq, then subscribes to the pool's current endpoints and follows its changes.
   * @throws SwitchyardError `CONFIG_INVALID` when zeromq is not installed or a budget field is invalid
   */
  static async create(options: KvEventSubscriberOptions): Promise<KvEventSubscriber> {
    const zmq = options.zeromq ?? (await loadZeromq());
    const sub = new KvEventSubscriber(options, zmq);
    const pool = options.pool;
    if (pool !== undefined) {
      for (const e of pool.list()) sub.#follow(e);
      const onAdded = (e: Endpoint): void => {
        sub.#follow(e);
      };
      const onUpdated = (e: Endpoint): void => {
        const current = sub.#subs.get(e.id);
        const next = sub.#addressOf(e);
        if (current !== undefined && next !== undefined && current.address.publisher === next.publisher && current.address.replay === next.replay) return;
        sub.unsubscribe(e.id);
        sub.#follow(e);
      };
      const onRemoved = (e: Endpoint): void => {
        sub.unsubscribe(e.id);
      };
      pool.on('added', onAdded);
      pool.on('updated', onUpdated);
      pool.on('removed', onRemoved);
      sub.#unfollow.push(() => pool.off('added', onAdded), () => pool.off('updated', onUpdated), () => pool.off('removed', onRemoved));
    }
    return sub;
  }

  /** Subscribes to one endpoint (replacing an existing subscription). */
  subscribe(endpointId: string, address: KvEndpointAddress, dialect: KvEventDialect = 'vllm'): void {
    if (this.#closed) return;
    this.unsubscribe(endpointId);
    const o = this.#options;
    const sub = new EndpointSubscription(endpointId, address, dialect, {
      zmq: this.#zmq,
      sink: o.sink,
      metrics: this.#metrics,
      clock: this.#clock,
      topicFilter: o.topicFilter ?? 'kv@',
      replayTimeoutMs: o.replayTimeoutMs ?? 5000,
      replayCooldownMs: o.replayCooldownMs ?? 30_000,
      maxPendingBatches: o.maxPendingBatches ?? 10_000,
      budget: this.#budget,
      limits: o.limits,
      onApplied: (id, seq) => this.emit('applied', id, seq),
      onReset: (id, reason) => this.emit('reset', id, reason),
    });
    this.#subs.set(endpointId, sub);
    sub.start();
  }

  /** Stops an endpoint's subscription (its index entries are the caller's business). */
  unsubscribe(endpointId: string): void {
    const sub = this.#subs.get(endpointId);
    if (sub === undefined) return;
    this.#subs.delete(endpointId);
    sub.close();
  }

  /** Current subscriptions. */
  status(): KvSubscriptionStatus[] {
    return [...this.#subs.values()].map((s) => ({ endpointId: s.endpointId, address: s.address, connected: s.connected, lastSeq: s.lastSeq }));
  }

  /** Closes every socket and stops following the pool. */
  close(): Promise<void> {
    this.#closed = true;
    for (const off of this.#unfollow) off();
    for (const id of [...this.#subs.keys()]) this.unsubscribe(id);
    return Promise.resolve();
  }

  #addressOf(e: Endpoint): KvEndpointAddress | undefined {
    if (this.#options.addressOf !== undefined) return this.#options.addressOf(e);
    const rank = rankOf(e.id);
    const host = e.ip.includes(':') ? `[${e.ip}]` : e.ip;
    const port = (this.#options.port ?? DEFAULT_KV_EVENTS_PORT) + rank;
    const replayPort = this.#options.replayPort;
    return { publisher: `tcp://${host}:${port}`, replay: replayPort === undefined ? undefined : `tcp://${host}:${replayPort + rank}` };
  }

  #follow(e: Endpoint): void {
    const address = this.#addressOf(e);
    if (address === undefined) return;
    const dialect = this.#options.dialectOf?.(e) ?? (e.engineType === 'sglang' ? 'sglang' : 'vllm');
    this.subscribe(e.id, address, dialect);
  }
}
