import { SwitchyardError } from '../errors/switchyard-error.js';
import type { ExchangeReply, ExchangeRequest, PeerSnapshot, ReceivedRecord, SharedStateTransport } from './types.js';

interface Batch {
  readonly seq: number;
  readonly replicaId: string;
  readonly records: ExchangeRequest['records'];
}

/**
 * Options of {@link InMemoryStateHub}.
 * @public
 * @category Shared state across replicas
 */
export interface InMemoryStateHubOptions {
  /** Record batches kept for replicas that read late (default 1,000; older ones are trimmed, like a capped stream). */
  readonly maxBatches?: number | undefined;
  /** Records returned per exchange at most (default 5,000; the rest come with the next ones). */
  readonly maxRecordsPerRead?: number | undefined;
}

/**
 * An in-process store for replicas that live in one process (tests, the simulator's
 * multi-gateway fleet): the same semantics as the Redis store (latest load snapshot per replica,
 * a capped log of record batches read from a per-replica cursor), with fault switches so tests can
 * take it down, restart it empty or cut one replica off.
 * @public
 * @category Shared state across replicas
 */
export class InMemoryStateHub {
  readonly #loads = new Map<string, PeerSnapshot>();
  readonly #log: Batch[] = [];
  readonly #maxBatches: number;
  readonly #maxRead: number;
  readonly #cut = new Set<string>();
  #head = 0;
  #nextSeq = 1;
  #down = false;

  constructor(options: InMemoryStateHubOptions = {}) {
    this.#maxBatches = options.maxBatches ?? 1000;
    this.#maxRead = options.maxRecordsPerRead ?? 5000;
    if (!(this.#maxBatches > 0) || !(this.#maxRead > 0)) throw new SwitchyardError('CONFIG_INVALID', 'InMemoryStateHub: maxBatches and maxRecordsPerRead must be positive');
  }

  /** A transport for one replica. */
  transport(replicaId: string): SharedStateTransport {
    let cursor = 0;
    return {
      exchange: (request: ExchangeRequest, signal: AbortSignal): Promise<ExchangeReply> => {
        if (signal.aborted) return Promise.reject(new Error('aborted'));
        if (this.#down) return Promise.reject(new Error('store is down'));
        if (this.#cut.has(replicaId)) return Promise.reject(new Error('store unreachable (partitioned)'));
        this.#loads.set(request.replicaId, { replicaId: request.replicaId, seq: request.seq, load: request.load });
        if (request.records.length > 0) this.#append({ seq: this.#nextSeq++, replicaId: request.replicaId, records: request.records });
        const peers = [...this.#loads.values()].filter((p) => p.replicaId !== request.replicaId);
        const records: ReceivedRecord[] = [];
        for (let i = this.#head; i < this.#log.length && records.length < this.#maxRead; i++) {
          const b = this.#log[i] as Batch;
          if (b.seq <= cursor) continue;
          cursor = b.seq;
          if (b.replicaId === request.replicaId) continue;
          for (const r of b.records) records.push({ replicaId: b.replicaId, channel: r.channel, data: r.data });
        }
        return Promise.resolve({ peers, records });
      },
      close: () => Promise.resolve(),
    };
  }

  /** Takes the store down (`true`) or brings it back (`false`) for every replica. */
  setDown(down: boolean): void {
    this.#down = down;
  }

  /** Forgets everything, as a restarted store without persistence. Cursors stay valid (sequence numbers keep growing). */
  clear(): void {
    this.#loads.clear();
    this.#log.length = 0;
    this.#head = 0;
  }

  /** Cuts one replica off (`true`) or reconnects it (`false`); the others keep syncing. */
  partition(replicaId: string, cut: boolean): void {
    if (cut) this.#cut.add(replicaId);
    else this.#cut.delete(replicaId);
  }

  /** Removes a replica's load snapshot (as a store-side expiry would). */
  forget(replicaId: string): void {
    this.#loads.delete(replicaId);
  }

  #append(batch: Batch): void {
    this.#log.push(batch);
    if (this.#log.length - this.#head > this.#maxBatches) this.#head++;
    // Compact now and then instead of shifting on every append.
    if (this.#head > this.#maxBatches) {
      this.#log.splice(0, this.#head);
      this.#head = 0;
    }
  }
}
