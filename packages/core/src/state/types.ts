import type { EndpointPool } from '../endpoints/pool.js';

/**
 * In-flight load one replica reports, per pool scope and endpoint id: `[requests, tokens]`.
 * @public
 * @category Shared state across replicas
 */
export type ReplicaLoad = Readonly<Record<string, Readonly<Record<string, readonly [number, number]>>>>;

/**
 * One piece of shared history (a routing decision, a session binding) on a named channel. `data`
 * must survive `JSON.stringify`.
 * @public
 * @category Shared state across replicas
 */
export interface SharedRecord {
  /** Channel, e.g. `default/prefix/approx-prefix-cache-producer`. */
  readonly channel: string;
  /** The payload; its shape is the channel owner's business and is validated on receipt. */
  readonly data: unknown;
}

/**
 * What one replica sends in one sync round trip.
 * @public
 * @category Shared state across replicas
 */
export interface ExchangeRequest {
  /** The sending replica. */
  readonly replicaId: string;
  /** Increases with every exchange; peers use it to tell a live replica from a dead one. */
  readonly seq: number;
  /** The replica's own in-flight load (a full snapshot, not a delta). */
  readonly load: ReplicaLoad;
  /** Records published since the last successful exchange. */
  readonly records: readonly SharedRecord[];
}

/**
 * Another replica's latest load snapshot as the store holds it.
 * @public
 * @category Shared state across replicas
 */
export interface PeerSnapshot {
  /** The peer. */
  readonly replicaId: string;
  /** The peer's `seq` when it wrote the snapshot. */
  readonly seq: number;
  /** Its load. */
  readonly load: ReplicaLoad;
}

/**
 * A record another replica published.
 * @public
 * @category Shared state across replicas
 */
export interface ReceivedRecord extends SharedRecord {
  /** The publishing replica. */
  readonly replicaId: string;
}

/**
 * What one sync round trip returns.
 * @public
 * @category Shared state across replicas
 */
export interface ExchangeReply {
  /** Every other replica's latest snapshot (the store may include dead ones; seq tells). */
  readonly peers: readonly PeerSnapshot[];
  /** Records other replicas published since this replica's previous exchange (bounded per call). */
  readonly records: readonly ReceivedRecord[];
}

/**
 * The network side of shared state: one batched, pipelined round trip per sync interval. The Redis
 * implementation is `@switchyard/redis`; {@link InMemoryStateHub} is the in-process one. An
 * exchange may reject (store down, slow, partitioned); the caller then serves from local state.
 * @public
 * @category Shared state across replicas
 */
export interface SharedStateTransport {
  /** Pushes this replica's snapshot and records; pulls the peers'. Rejects on any failure or when `signal` aborts. */
  exchange(request: ExchangeRequest, signal: AbortSignal): Promise<ExchangeReply>;
  /** Releases connections. */
  close(): Promise<void>;
}

/**
 * Receives records other replicas published on one channel.
 * @public
 * @category Shared state across replicas
 */
export type RecordHandler = (data: unknown, replicaId: string) => void;

/**
 * Health of shared state as one replica sees it.
 * @public
 * @category Shared state across replicas
 */
export interface SharedStateStatus {
  /** This replica. */
  readonly replicaId: string;
  /** The last exchange succeeded. */
  readonly connected: boolean;
  /** Milliseconds since the last successful exchange (Infinity before the first). */
  readonly stalenessMs: number;
  /** Peers whose snapshots are fresh and counted. */
  readonly peers: number;
}

/**
 * The state seam the picker's plugins read through. Everything on it is synchronous and local:
 * publishing appends to an outbox, reading sees what the last sync brought in, so a pick never
 * waits on the network. In-flight load flows through the pools it is attached to: each pool's
 * endpoints then report the fleet's in-flight counts (local + peers).
 * @public
 * @category Shared state across replicas
 */
export interface SharedState {
  /** This replica's id. */
  readonly replicaId: string;
  /** Shares the in-flight load of `pool` under `scope` (the pool's name; the same on every replica). */
  attachPool(pool: EndpointPool, scope?: string): void;
  /** Queues a record for the next sync. Never blocks; a full outbox drops the record (counted). */
  publish(channel: string, data: unknown): void;
  /** Calls `handler` with every record other replicas publish on `channel`; returns the unsubscribe. */
  subscribe(channel: string, handler: RecordHandler): () => void;
  /** A view whose channels are prefixed with `scope/` (one per pool in a multi-pool gateway). */
  scope(scope: string): SharedState;
  /** Health now. */
  status(): SharedStateStatus;
}
