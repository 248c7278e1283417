import type { Registry } from 'prom-client';
import { systemClock, type Clock, type TimerHandle } from '../clock/clock.js';
import type { EndpointPool } from '../endpoints/pool.js';
import { SwitchyardError } from '../errors/switchyard-error.js';
import { SharedStateMetrics } from './metrics.js';
import { applyPeerLoad, snapshotLoad, type AttachedPool } from './pool-load.js';
import { scopedState } from './scoped.js';
import type { ExchangeReply, PeerSnapshot, RecordHandler, SharedRecord, SharedState, SharedStateStatus, SharedStateTransport } from './types.js';

/**
 * llm-d's `dataLayer.crossReplicaSyncInterval` default. @public
 * @category Shared state across replicas
 */
export const DEFAULT_SYNC_INTERVAL_MS = 200;

/**
 * Options of {@link ReplicaSync}.
 * @public
 * @category Shared state across replicas
 */
export interface ReplicaSyncOptions {
  /** The store (Redis, or an {@link InMemoryStateHub} transport). */
  readonly transport: SharedStateTransport;
  /** This replica's id (default: random). Must differ between replicas. */
  readonly replicaId?: string | undefined;
  /** Time source. @default systemClock */
  readonly clock?: Clock | undefined;
  /** How often to sync (default 200 ms, llm-d's `crossReplicaSyncInterval`). */
  readonly syncIntervalMs?: number | undefined;
  /**
   * Oldest shared state still used (default max(1 s, 5 × interval)): a peer whose snapshot has
   * not changed for this long is no longer counted, and while the store is unreachable this long
   * every peer is dropped, so the replica schedules on its own counts only.
   */
  readonly maxStalenessMs?: number | undefined;
  /** One exchange is abandoned after this long (default max(interval, 500 ms)). */
  readonly exchangeTimeoutMs?: number | undefined;
  /** Records waiting for the next sync at most (default 10,000); more are dropped and counted. */
  readonly maxOutbox?: number | undefined;
  /** Records sent per exchange at most (default 2,000). */
  readonly maxRecordsPerExchange?: number | undefined;
  /** One line when sharing stops working and one when it is back. */
  readonly log?: ((line: string) => void) | undefined;
  /** Registry for `SharedStateMetrics` (default: a new one, see `metrics.registry`). */
  readonly registry?: Registry | undefined;
}

interface PeerState {
  seq: number;
  changedAt: number;
  snapshot: PeerSnapshot;
}

function positive(value: number | undefined, fallback: number, field: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new SwitchyardError('CONFIG_INVALID', `sharedState.${field}: expected a positive number, got ${String(value)}`);
  return value;
}

/**
 * Shared state across replicas: a {@link SharedState} that syncs with a store every
 * `syncIntervalMs` in the background. Publishing and reading are local; one exchange at a time
 * pushes this replica's in-flight snapshot and new records and pulls the peers', so the state a
 * pick sees is at most about two intervals old while the store answers. When it does not (down,
 * slow, restarted, partitioned) requests keep being served from local state, the
 * `switchyard_shared_state_connected` gauge drops to 0, one line is logged, and the next
 * successful exchange rejoins. Call {@link ReplicaSync.start} once the pools are attached.
 * @public
 * @category Shared state across replicas
 */
export class ReplicaSync implements SharedState {
  /** This replica's id. */
  readonly replicaId: string;
  /** Its metrics. */
  readonly metrics: SharedStateMetrics;
  /** The sync interval in ms. */
  readonly syncIntervalMs: number;
  /** The staleness bound in ms. */
  readonly maxStalenessMs: number;
  readonly #o: ReplicaSyncOptions;
  readonly #clock: Clock;
  readonly #timeoutMs: number;
  readonly #maxOutbox: number;
  readonly #maxBatch: number;
  readonly #pools: AttachedPool[] = [];
  readonly #subs = new Map<string, Set<RecordHandler>>();
  readonly #peers = new Map<string, PeerState>();
  #outbox: SharedRecord[] = [];
  #seq = 0;
  #lastSuccessAt = -Infinity;
  #connected = false;
  #failing = false;
  #running: Promise<boolean> | undefined;
  #timer: TimerHandle | undefined;
  #closed = false;

  /** @throws SwitchyardError `CONFIG_INVALID` naming a bad option */
  constructor(options: ReplicaSyncOptions) {
    this.#o = options;
    this.#clock = options.clock ?? systemClock;
    this.replicaId = options.replicaId ?? `replica-${Math.random().toString(36).slice(2, 10)}`;
    if (this.replicaId === '') throw new SwitchyardError('CONFIG_INVALID', 'sharedState.replicaId: must not be empty');
    this.syncIntervalMs = positive(options.syncIntervalMs, DEFAULT_SYNC_INTERVAL_MS, 'syncInterval');
    this.maxStalenessMs = positive(options.maxStalenessMs, Math.max(1000, 5 * this.syncIntervalMs), 'maxStaleness');
    this.#timeoutMs = positive(options.exchangeTimeoutMs, Math.max(this.syncIntervalMs, 500), 'exchangeTimeout');
    this.#maxOutbox = positive(options.maxOutbox, 10_000, 'maxOutbox');
    this.#maxBatch = positive(options.maxRecordsPerExchange, 2_000, 'maxRecordsPerExchange');
    this.metrics = new SharedStateMetrics(() => this.status(), options.registry);
  }

  attachPool(pool: EndpointPool, scope = 'default'): void {
    this.#pools.push({ pool, scope });
  }

  publish(channel: string, data: unknown): void {
    if (this.#closed) return;
    if (this.#outbox.length >= this.#maxOutbox) {
      this.metrics.records.inc({ direction: 'dropped' });
      return;
    }
    this.#outbox.push({ channel, data });
  }

  subscribe(channel: string, handler: RecordHandler): () => void {
    let set = this.#subs.get(channel);
    if (set === undefined) this.#subs.set(channel, (set = new Set()));
    set.add(handler);
    return () => {
      set.delete(handler);
    };
  }

  scope(scope: string): SharedState {
    return scopedState(this, scope);
  }

  status(): SharedStateStatus {
    const now = this.#clock.now();
    return { replicaId: this.replicaId, connected: this.#connected, stalenessMs: now - this.#lastSuccessAt, peers: this.#freshPeers(now).length };
  }

  /** Starts syncing: one exchange now, then one every interval. */
  start(): void {
    if (this.#closed || this.#timer !== undefined) return;
    const tick = (): void => {
      if (this.#closed) return;
      void this.syncNow();
      this.#timer = this.#clock.setTimeout(tick, this.syncIntervalMs);
    };
    tick();
  }

  /**
   * Runs one exchange now (or waits for the one running); resolves true when it succeeded. Never
   * rejects. The background loop calls it; tests call it to sync at a chosen moment. After
   * {@link ReplicaSync.close} it does nothing and resolves false.
   */
  syncNow(): Promise<boolean> {
    if (this.#closed) return Promise.resolve(false);
    if (this.#running !== undefined) {
      this.metrics.syncs.inc({ result: 'skipped' });
      return this.#running;
    }
    const run = this.#exchange().finally(() => {
      this.#running = undefined;
    });
    this.#running = run;
    return run;
  }

  /** Stops syncing (one last exchange already running is awaited) and closes the transport. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    await this.#running;
    await this.#o.transport.close();
  }

  async #exchange(): Promise<boolean> {
    const batch = this.#outbox.length <= this.#maxBatch ? this.#outbox : this.#outbox.slice(0, this.#maxBatch);
    this.#outbox = batch === this.#outbox ? [] : this.#outbox.slice(batch.length);
    const request = { replicaId: this.replicaId, seq: ++this.#seq, load: snapshotLoad(this.#pools), records: batch };
    const abort = new AbortController();
    const timer = this.#clock.setTimeout(() => {
      abort.abort(new Error(`no answer within ${this.#timeoutMs} ms`));
    }, this.#timeoutMs);
    try {
      const reply = await Promise.race([this.#o.transport.exchange(request, abort.signal), aborted(abort.signal)]);
      this.#succeeded(reply, batch.length);
      return true;
    } catch (err) {
      this.#failed(err, batch);
      return false;
    } finally {
      this.#clock.clearTimeout(timer);
      abort.abort();
    }
  }

  #succeeded(reply: ExchangeReply, sent: number): void {
    const now = this.#clock.now();
    this.#lastSuccessAt = now;
    this.metrics.syncs.inc({ result: 'ok' });
    if (sent > 0) this.metrics.records.inc({ direction: 'sent' }, sent);
    const seen = new Set<string>();
    for (const snapshot of reply.peers) {
      if (snapshot.replicaId === this.replicaId) continue;
      seen.add(snapshot.replicaId);
      const prev = this.#peers.get(snapshot.replicaId);
      if (prev === undefined || prev.seq !== snapshot.seq) this.#peers.set(snapshot.replicaId, { seq: snapshot.seq, changedAt: now, snapshot });
    }
    for (const id of [...this.#peers.keys()]) if (!seen.has(id)) this.#peers.delete(id);
    applyPeerLoad(this.#pools, this.#freshPeers(now));
    this.#deliver(reply);
    const wasFailing = this.#failing;
    this.#connected = true;
    this.#failing = false;
    if (wasFailing) this.#o.log?.(`shared state: sync works again; sharing with ${this.#freshPeers(now).length} peer(s)`);
  }

  #failed(err: unknown, batch: readonly SharedRecord[]): void {
    this.metrics.syncs.inc({ result: 'error' });
    // Keep the unsent records for the next attempt, as far as the outbox has room.
    const room = Math.max(0, this.#maxOutbox - this.#outbox.length);
    const kept = batch.length <= room ? batch : batch.slice(0, room);
    if (kept.length < batch.length) this.metrics.records.inc({ direction: 'dropped' }, batch.length - kept.length);
    this.#outbox = kept.length === 0 ? this.#outbox : [...kept, ...this.#outbox];
    this.#connected = false;
    const now = this.#clock.now();
    if (now - this.#lastSuccessAt > this.maxStalenessMs && this.#peers.size > 0) {
      this.#peers.clear();
      applyPeerLoad(this.#pools, []);
    }
    if (!this.#failing && !this.#closed) {
      this.#failing = true;
      const why = err instanceof Error ? err.message : String(err);
      this.#o.log?.(`shared state: sync failed (${why}); serving from local state, peers' load dropped after ${this.maxStalenessMs} ms; retrying every ${this.syncIntervalMs} ms`);
    }
  }

  #deliver(reply: ExchangeReply): void {
    for (const r of reply.records) {
      if (r.replicaId === this.replicaId) continue;
      const handlers = this.#subs.get(r.channel);
      if (handlers === undefined) continue;
      this.metrics.records.inc({ direction: 'received' });
      for (const h of handlers) {
        try {
          h(r.data, r.replicaId);
        } catch {
          // A record another replica (or a foreign writer) put in the store is input: bad input is counted, never thrown.
          this.metrics.records.inc({ direction: 'invalid' });
        }
      }
    }
  }

  #freshPeers(now: number): PeerSnapshot[] {
    const out: PeerSnapshot[] = [];
    if (now - this.#lastSuccessAt > this.maxStalenessMs) return out;
    for (const p of this.#peers.values()) if (now - p.changedAt <= this.maxStalenessMs) out.push(p.snapshot);
    return out;
  }
}

/** Rejects when `signal` aborts (handled here too: after a successful race nobody listens). */
function aborted(signal: AbortSignal): Promise<never> {
  const p = new Promise<never>((_resolve, reject) => {
    signal.addEventListener('abort', () => {
      reject(signal.reason instanceof Error ? signal.reason : new Error('exchange aborted'));
    }, { once: true });
  });
  p.catch(() => undefined);
  return p;
}
