import type { ExchangeReply, ExchangeRequest, SharedStateTransport } from '@switchyard/core';
import { decodeEvents, decodePeers, encodeRecords } from './decode.js';
import { reconnectDelay, resolveRedisOptions, type RedisTransportOptions, type ResolvedRedisOptions } from './options.js';

/** The slice of a node-redis v6 client this transport uses (RESP2 raw commands). */
interface RawClient {
  readonly isReady: boolean;
  on(event: 'error', listener: (error: Error) => void): unknown;
  once(event: 'ready', listener: () => void): unknown;
  off(event: 'ready', listener: () => void): unknown;
  connect(): Promise<unknown>;
  destroy(): void;
  sendCommand<T = unknown>(args: readonly string[], options?: { readonly timeout?: number; readonly abortSignal?: AbortSignal }): Promise<T>;
}

/**
 * Counters of one transport, for the benchmarks' Redis-operations-per-request figure.
 * @public
 */
export interface RedisTransportStats {
  /** Exchanges attempted. */
  readonly exchanges: number;
  /** Redis commands sent (each exchange is one pipelined round trip of 3–5 commands). */
  readonly commands: number;
  /** Malformed entries found in the store and skipped. */
  readonly invalid: number;
}

/**
 * The Redis store of shared state (node-redis v6, `@redis/client`, an optional peer dependency
 * loaded on first use). Layout under the key prefix: `load`, a hash of replica id → its latest
 * in-flight snapshot; `events`, a capped stream with one entry per sync holding that sync's
 * records. One exchange is one pipelined round trip: `HSET` own snapshot, `HGETALL` the hash,
 * `XADD` the batch (when there is one), `XREAD` from this replica's cursor (non-blocking). The
 * client is set up for plain Redis/Valkey: RESP2, `maintNotifications: 'disabled'`, a per-command
 * timeout, no offline queue (commands fail at once while disconnected), and reconnection with
 * exponential backoff forever.
 * @public
 */
export class RedisTransport implements SharedStateTransport {
  readonly #o: ResolvedRedisOptions;
  readonly #onError: ((error: Error) => void) | undefined;
  readonly #loadKey: string;
  readonly #eventsKey: string;
  #client: RawClient | undefined;
  #connecting: Promise<RawClient> | undefined;
  #lastError: Error | undefined;
  #cursor = '0-0';
  #closed = false;
  #everReady = false;
  #exchanges = 0;
  #commands = 0;
  #invalid = 0;

  /** @throws SwitchyardError `CONFIG_INVALID` naming a bad option */
  constructor(options: RedisTransportOptions) {
    this.#o = resolveRedisOptions(options);
    this.#onError = options.onError;
    this.#loadKey = `${this.#o.keyPrefix}load`;
    this.#eventsKey = `${this.#o.keyPrefix}events`;
  }

  /** The longest one exchange may take here: the first waits for the connection, later ones get `commandTimeoutMs`. */
  get maxExchangeMs(): number {
    return this.#o.connectTimeoutMs + this.#o.commandTimeoutMs;
  }

  /** Counters since creation. */
  stats(): RedisTransportStats {
    return { exchanges: this.#exchanges, commands: this.#commands, invalid: this.#invalid };
  }

  /**
   * Starts connecting (the first exchange does it too). Resolves once the client exists, not once
   * Redis answers: a Redis that is down at start is retried in the background.
   */
  async connect(): Promise<void> {
    await this.#ensureClient();
  }

  async exchange(request: ExchangeRequest, signal: AbortSignal): Promise<ExchangeReply> {
    this.#exchanges++;
    // node-redis' command timeout only covers commands not yet written; a Redis that stops
    // answering would hold written ones forever, so the whole round trip has a deadline here.
    const ms = this.#client?.isReady === true ? this.#o.commandTimeoutMs : this.#o.connectTimeoutMs + this.#o.commandTimeoutMs;
    const deadline = new AbortController();
    const timer = setTimeout(() => {
      deadline.abort(new Error(`redis did not answer within ${ms} ms`));
    }, ms);
    timer.unref();
    const both = AbortSignal.any([signal, deadline.signal]);
    try {
      return await settledBy(this.#exchangeOn(request, both), both);
    } catch (err) {
      // Commands stuck on a stalled connection would pile up: start over on a fresh one.
      if (deadline.signal.aborted) this.#dropClient();
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  async #exchangeOn(request: ExchangeRequest, signal: AbortSignal): Promise<ExchangeReply> {
    const client = await this.#ensureClient();
    if (!client.isReady) await this.#firstConnection(client, signal);
    const options = { timeout: this.#o.commandTimeoutMs, abortSignal: signal };
    const send = <T>(args: string[]): Promise<T> => {
      this.#commands++;
      return client.sendCommand<T>(args, options);
    };
    const wallNow = Date.now();
    const snapshot = JSON.stringify({ s: request.seq, t: wallNow, l: request.load });
    // Issued in one tick: node-redis writes them as one pipeline.
    const writes: Promise<unknown>[] = [send(['HSET', this.#loadKey, request.replicaId, snapshot])];
    if (request.records.length > 0) {
      writes.push(send(['XADD', this.#eventsKey, 'MAXLEN', '~', String(this.#o.maxStreamLength), '*', 'r', request.replicaId, 'd', encodeRecords(request.records)]));
    }
    const peersReply = send<unknown>(['HGETALL', this.#loadKey]);
    const eventsReply = send<unknown>(['XREAD', 'COUNT', String(this.#o.readBatches), 'STREAMS', this.#eventsKey, this.#cursor]);
    const [, peersRaw, eventsRaw] = await Promise.all([Promise.all(writes), peersReply, eventsReply]);
    const { peers, stale } = decodePeers(peersRaw, request.replicaId, wallNow, this.#o.forgetAfterMs);
    if (stale.length > 0) {
      // Housekeeping only: a failure here changes nothing for this sync.
      send(['HDEL', this.#loadKey, ...stale]).catch(() => undefined);
    }
    const events = decodeEvents(eventsRaw, request.replicaId);
    if (events.lastId !== undefined) this.#cursor = events.lastId;
    this.#invalid += events.invalid;
    return { peers, records: events.records };
  }

  /**
   * Before the first connection an exchange waits for it (until `signal` aborts), so a replica
   * that starts next to a healthy Redis shares from its first sync. Once connected, a lost
   * connection fails exchanges at once until the client has reconnected.
   */
  async #firstConnection(client: RawClient, signal: AbortSignal): Promise<void> {
    const notConnected = (): Error => new Error(`redis is not connected${this.#lastError === undefined ? '' : ` (${this.#lastError.message})`}`);
    if (this.#everReady || signal.aborted) throw notConnected();
    await new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        client.off('ready', onReady);
        reject(notConnected());
      };
      const onReady = (): void => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      client.once('ready', onReady);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Disconnects at once (pending commands fail; the sync treats them as a failed exchange). */
  close(): Promise<void> {
    this.#closed = true;
    this.#client?.destroy();
    this.#client = undefined;
    return Promise.resolve();
  }

  #dropClient(): void {
    this.#client?.destroy();
    this.#client = undefined;
    this.#connecting = undefined;
    this.#everReady = false;
  }

  #ensureClient(): Promise<RawClient> {
    if (this.#closed) return Promise.reject(new Error('redis transport is closed'));
    this.#connecting ??= this.#createClient();
    return this.#connecting;
  }

  async #createClient(): Promise<RawClient> {
    let mod: typeof import('@redis/client');
    try {
      mod = await import('@redis/client');
    } catch (err) {
      this.#connecting = undefined;
      throw new Error(`shared state on Redis needs the optional dependency @redis/client (npm install @redis/client): ${err instanceof Error ? err.message : String(err)}`);
    }
    const o = this.#o;
    const client = mod.createClient({
      url: o.url,
      RESP: 2,
      maintNotifications: 'disabled',
      disableOfflineQueue: true,
      commandOptions: { timeout: o.commandTimeoutMs },
      socket: {
        connectTimeout: o.connectTimeoutMs,
        reconnectStrategy: (retries: number) => reconnectDelay(retries, o),
      },
    }) as unknown as RawClient;
    client.once('ready', () => {
      if (this.#client === client) this.#everReady = true;
    });
    client.on('error', (error: Error) => {
      this.#lastError = error;
      this.#onError?.(error);
    });
    if (this.#closed) {
      client.destroy();
      throw new Error('redis transport is closed');
    }
    this.#client = client;
    // Resolves once connected; with a Redis that is down it keeps retrying in the background.
    client.connect().catch((err: unknown) => {
      this.#lastError = err instanceof Error ? err : new Error(String(err));
    });
    return client;
  }
}

/** `work`, or the signal's reason once it aborts (a late rejection of `work` is then ignored). */
function settledBy<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  work.catch(() => undefined);
  if (signal.aborted) return Promise.reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
