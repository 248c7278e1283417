import type { Clock } from '@switchyard/core';
import { decodeKvEventBatch } from '../kv-events/decode.js';
import type { KvEventBatch, KvEventDialect } from '../kv-events/types.js';
import type { KvDecodeLimits } from '../kv-events/limits.js';
import type { PrefixIndexMetrics } from '../metrics/prefix-metrics.js';
import type { KvBatchSource } from '../precise/types.js';
import type { KvEventBudget } from './event-budget.js';
import { requestReplay } from './replay-client.js';
import { decodeSeq, topicModel } from './wire.js';
import type { ZmqModule, ZmqSubscriberLike } from './zmq-types.js';

/**
 * Where an endpoint publishes KV events.
 * @public
 * @category Subscriber
 */
export interface KvEndpointAddress {
  /** PUB endpoint, e.g. `tcp://10.0.0.1:5557`. */
  readonly publisher: string;
  /** Replay ROUTER endpoint, when the engine has one. Without it, gaps are counted but not healed. */
  readonly replay?: string | undefined;
}

/**
 * What the subscriber feeds: the precise index, or anything with the same two methods.
 * @public
 * @category Subscriber
 */
export interface KvEventSink {
  /** Applies a decoded batch. */
  ingest(endpointId: string, batch: KvEventBatch, source?: KvBatchSource): void;
  /** Forgets an endpoint's cache state ("cache unknown"). */
  clearEndpoint(endpointId: string): void;
}

/** Settings shared by all subscriptions of one subscriber. @internal */
export interface SubscriptionContext {
  readonly zmq: ZmqModule;
  readonly sink: KvEventSink;
  readonly metrics: PrefixIndexMetrics;
  readonly clock: Clock;
  readonly topicFilter: string;
  readonly replayTimeoutMs: number;
  readonly replayCooldownMs: number;
  readonly maxPendingBatches: number;
  readonly budget: KvEventBudget;
  readonly limits: KvDecodeLimits | undefined;
  readonly onApplied: (endpointId: string, seq: number) => void;
  readonly onReset: (endpointId: string, reason: string) => void;
}

interface Pending {
  readonly seq: number;
  readonly payload: Buffer;
  readonly model: string | undefined;
}

/**
 * One endpoint's KV-event stream: a SUB socket, sequence tracking, replay on gaps, and a reset of
 * the endpoint's index entries when the stream restarts or the connection drops.
 * @internal
 */
export class EndpointSubscription {
  readonly endpointId: string;
  readonly address: KvEndpointAddress;
  readonly #ctx: SubscriptionContext;
  readonly #dialect: KvEventDialect;
  #socket: ZmqSubscriberLike | undefined;
  #lastSeq: number | undefined;
  #replaying = false;
  #pending: Pending[] = [];
  #pendingHead = 0;
  #cooldownUntil = -Infinity;
  #connected = false;
  #closed = false;
  /** Model of the latest live topic; replayed batches carry no topic. */
  #model: string | undefined;
  /** Aborted on close, so a running replay releases its socket at once. */
  readonly #lifetime = new AbortController();

  constructor(endpointId: string, address: KvEndpointAddress, dialect: KvEventDialect, ctx: SubscriptionContext) {
    this.endpointId = endpointId;
    this.address = address;
    this.#dialect = dialect;
    this.#ctx = ctx;
  }

  /** Last applied sequence number. */
  get lastSeq(): number | undefined {
    return this.#lastSeq;
  }

  /** Whether the SUB socket is connected. */
  get connected(): boolean {
    return this.#connected;
  }

  /** Opens the socket and starts the receive loop. */
  start(): void {
    const socket = new this.#ctx.zmq.Subscriber();
    socket.linger = 0;
    this.#socket = socket;
    socket.events.on('connect', () => {
      if (!this.#connected) this.#ctx.metrics.subscriptions.inc();
      this.#connected = true;
    });
    socket.events.on('disconnect', () => {
      if (this.#connected) this.#ctx.metrics.subscriptions.dec();
      this.#connected = false;
      if (!this.#closed) this.#reset('disconnect');
    });
    socket.subscribe(this.#ctx.topicFilter);
    socket.connect(this.address.publisher);
    void this.#loop(socket);
  }

  /** Closes the sockets; the endpoint's index entries are left to the caller. */
  close(): void {
    this.#closed = true;
    this.#lifetime.abort();
    if (this.#connected) this.#ctx.metrics.subscriptions.dec();
    this.#connected = false;
    this.#socket?.close();
    this.#socket = undefined;
  }

  async #loop(socket: ZmqSubscriberLike): Promise<void> {
    try {
      for await (const frames of socket) {
        this.#onMessage(frames);
        // Socket reads can resolve back to back without ever returning to the event loop.
        const pause = this.#ctx.budget.pause();
        if (pause !== undefined) await pause;
      }
    } catch (err) {
      if (!this.#closed) this.#ctx.metrics.error('socket', this.endpointId, err instanceof Error ? err.message : String(err));
    }
  }

  #onMessage(frames: Buffer[]): void {
    if (frames.length !== 3) {
      this.#ctx.metrics.error('bad-frame', this.endpointId, `expected 3 frames [topic, seq, payload], got ${frames.length}`);
      return;
    }
    const [topic, seqFrame, payload] = frames as [Buffer, Buffer, Buffer];
    const seq = decodeSeq(seqFrame);
    if (seq === undefined || seq > BigInt(Number.MAX_SAFE_INTEGER)) {
      this.#ctx.metrics.error('bad-frame', this.endpointId, `sequence frame must be 8 bytes big-endian, got ${seqFrame.byteLength} bytes`);
      return;
    }
    const item: Pending = { seq: Number(seq), payload, model: topicModel(topic.toString('utf8')) };
    this.#model = item.model;
    if (this.#replaying) {
      this.#enqueue(item);
      return;
    }
    this.#sequence(item, true);
  }

  /** Routes one live batch by its sequence number. */
  #sequence(item: Pending, mayReplay: boolean): void {
    const last = this.#lastSeq;
    if (last === undefined) {
      // First batch of a stream: a mid-stream join replays what the engine still buffers.
      if (item.seq > 0 && mayReplay && this.#canReplay()) {
        this.#startReplay(0, item);
        return;
      }
      this.#apply(item);
      return;
    }
    if (item.seq === last + 1) {
      this.#apply(item);
      return;
    }
    if (item.seq <= last) {
      // The publisher restarted (its counter starts at 0 again): whatever we knew is stale.
      this.#reset('sequence-reset');
      this.#apply(item);
      return;
    }
    this.#ctx.metrics.gaps.inc();
    if (mayReplay && this.#canReplay()) {
      this.#startReplay(last + 1, item);
      return;
    }
    this.#ctx.metrics.error('unhealed-gap', this.endpointId, `batches ${last + 1}..${item.seq - 1} were lost`);
    this.#apply(item);
  }

  #canReplay(): boolean {
    return this.address.replay !== undefined && this.#ctx.clock.now() >= this.#cooldownUntil;
  }

  #startReplay(fromSeq: number, trigger: Pending): void {
    const replay = this.address.replay;
    if (replay === undefined) return;
    this.#replaying = true;
    this.#enqueue(trigger);
    let incomplete = false;
    void requestReplay({
      zmq: this.#ctx.zmq,
      address: replay,
      fromSeq,
      clock: this.#ctx.clock,
      timeoutMs: this.#ctx.replayTimeoutMs,
      signal: this.#lifetime.signal,
      onBatch: (seq, payload) => {
        if (this.#closed) return;
        const last = this.#lastSeq;
        if (last !== undefined && seq <= last) return;
        if (last !== undefined ? seq !== last + 1 : seq !== fromSeq) incomplete = true;
        this.#apply({ seq, payload, model: this.#model });
      },
    }).then((outcome) => {
      if (this.#closed) return;
      const result = outcome !== 'complete' ? 'failure' : incomplete ? 'incomplete' : 'success';
      this.#ctx.metrics.replays.inc({ outcome: result });
      if (outcome !== 'complete') {
        this.#cooldownUntil = this.#ctx.clock.now() + this.#ctx.replayCooldownMs;
        this.#ctx.metrics.error(`replay-${outcome}`, this.endpointId, `replay from ${fromSeq} via ${replay} failed (${outcome})`);
      }
      this.#replaying = false;
      this.#drain();
    });
  }

  #enqueue(item: Pending): void {
    if (this.#pending.length - this.#pendingHead >= this.#ctx.maxPendingBatches) {
      this.#ctx.metrics.error('pending-overflow', this.endpointId, 'too many batches queued behind a replay; oldest dropped');
      this.#pendingHead++;
    }
    this.#pending.push(item);
  }

  #drain(): void {
    const queue = this.#pending;
    let head = this.#pendingHead;
    this.#pending = [];
    this.#pendingHead = 0;
    for (; head < queue.length && !this.#closed; head++) {
      const item = queue[head] as Pending;
      const last = this.#lastSeq;
      // Live batches that arrived during the replay were usually replayed too.
      if (last !== undefined && item.seq <= last) continue;
      this.#sequence(item, false);
    }
  }

  #apply(item: Pending): void {
    this.#lastSeq = item.seq;
    const ctx = this.#ctx;
    const { batch, errors } = decodeKvEventBatch(item.payload, ctx.limits === undefined ? { dialect: this.#dialect } : { dialect: this.#dialect, limits: ctx.limits });
    for (const e of errors) ctx.metrics.error(e.cause, this.endpointId, e.message);
    if (batch !== undefined) {
      if (!ctx.budget.spend(Math.max(1, batch.events.length))) {
        // Dropping a batch leaves the index wrong for this endpoint; forget it rather than guess.
        ctx.metrics.error('over-budget', this.endpointId, `batch ${item.seq} (${batch.events.length} events) dropped: over ${ctx.budget.maxEventsPerSecond} events/s; cache state cleared`);
        ctx.metrics.resets.inc({ reason: 'over-budget' });
        ctx.sink.clearEndpoint(this.endpointId);
      } else {
        ctx.sink.ingest(this.endpointId, batch, item.model === undefined ? {} : { model: item.model });
      }
    }
    ctx.onApplied(this.endpointId, item.seq);
  }

  #reset(reason: 'sequence-reset' | 'disconnect'): void {
    this.#lastSeq = undefined;
    this.#ctx.metrics.resets.inc({ reason });
    this.#ctx.sink.clearEndpoint(this.endpointId);
    this.#ctx.onReset(this.endpointId, reason);
  }
}
