import type { ExchangeReply, ExchangeRequest, InMemoryStateHub, SharedStateTransport } from '@switchyard/core';
import { isJsonObject } from '@switchyard/core/internal';

/**
 * Shared state between the workers of one EPP process group (`--workers N`): the primary holds an
 * {@link InMemoryStateHub} and each worker's ReplicaSync exchanges with it over the cluster IPC
 * channel, so no Redis is needed on one host. A worker therefore sees its siblings' in-flight load
 * and records one sync interval late at most (plus one IPC hop), exactly as replicas see each other
 * through Redis.
 *
 * The channel is injected (a worker's `process`, a primary's `Worker`, or a pair of fakes in tests).
 * @internal
 */
export interface IpcChannel {
  /** Sends one message; may throw when the channel is closed (the worker or primary is gone). */
  send(message: unknown): void;
  /** Calls `handler` with every message from the other side; returns the unsubscribe. */
  onMessage(handler: (message: unknown) => void): () => void;
}

const EXCHANGE = 'switchyard:state-exchange';
const REPLY = 'switchyard:state-reply';

interface ExchangeMessage {
  readonly kind: typeof EXCHANGE;
  readonly id: number;
  readonly request: ExchangeRequest;
}

interface ReplyMessage {
  readonly kind: typeof REPLY;
  readonly id: number;
  readonly reply?: ExchangeReply;
  readonly error?: string;
}

/** Why an exchange message is unusable, or `undefined` when it is well formed. */
function exchangeProblem(m: Readonly<Record<string, unknown>>): string | undefined {
  if (typeof m['id'] !== 'number' || !Number.isSafeInteger(m['id'])) return 'id must be an integer';
  const r = m['request'];
  if (!isJsonObject(r)) return 'request must be an object';
  if (typeof r['replicaId'] !== 'string' || r['replicaId'] === '') return 'request.replicaId must be a non-empty string';
  if (typeof r['seq'] !== 'number' || !Number.isFinite(r['seq'])) return 'request.seq must be a number';
  if (!isJsonObject(r['load'])) return 'request.load must be an object';
  if (!Array.isArray(r['records'])) return 'request.records must be an array';
  for (const rec of r['records'] as unknown[]) {
    if (!isJsonObject(rec) || typeof rec['channel'] !== 'string') return 'request.records[].channel must be a string';
  }
  return undefined;
}

function trySend(channel: IpcChannel, message: unknown): void {
  try {
    channel.send(message);
  } catch {
    // The worker is gone; its ReplicaSync (if it still exists) times the exchange out.
  }
}

/**
 * The worker side: a {@link SharedStateTransport} whose exchanges are answered by the primary's hub.
 * An exchange rejects when the channel cannot send, when `signal` aborts (ReplicaSync's timeout) or
 * when the transport is closed; ReplicaSync then serves from local state, as with Redis down.
 * @internal
 */
export function ipcStateTransport(channel: IpcChannel): SharedStateTransport {
  const pending = new Map<number, { resolve: (r: ExchangeReply) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let closed = false;
  const unsubscribe = channel.onMessage((message) => {
    if (!isJsonObject(message) || message['kind'] !== REPLY || typeof message['id'] !== 'number') return;
    const m = message as unknown as ReplyMessage;
    const waiter = pending.get(m.id);
    if (waiter === undefined) return; // aborted or closed already
    pending.delete(m.id);
    if (m.error !== undefined || m.reply === undefined) waiter.reject(new Error(`state hub: ${m.error ?? 'reply without a body'}`));
    else waiter.resolve(m.reply);
  });
  return {
    exchange(request, signal) {
      if (closed) return Promise.reject(new Error('state hub transport is closed'));
      if (signal.aborted) return Promise.reject(new Error('aborted'));
      const id = nextId++;
      return new Promise<ExchangeReply>((resolve, reject) => {
        const onAbort = (): void => {
          pending.delete(id);
          reject(new Error('aborted'));
        };
        signal.addEventListener('abort', onAbort, { once: true });
        pending.set(id, {
          resolve: (r) => {
            signal.removeEventListener('abort', onAbort);
            resolve(r);
          },
          reject: (e) => {
            signal.removeEventListener('abort', onAbort);
            reject(e);
          },
        });
        const message: ExchangeMessage = { kind: EXCHANGE, id, request };
        try {
          channel.send(message);
        } catch (e) {
          pending.get(id)?.reject(new Error(`state hub unreachable: ${e instanceof Error ? e.message : String(e)}`));
          pending.delete(id);
        }
      });
    },
    close() {
      closed = true;
      unsubscribe();
      for (const w of pending.values()) w.reject(new Error('state hub transport is closed'));
      pending.clear();
      return Promise.resolve();
    },
  };
}

/** What {@link serveStateHub} returns for one worker. @internal */
export interface ServedWorker {
  /** Stops answering and removes the worker's load snapshot from the hub (call it when the worker exits). */
  release(): void;
}

/**
 * The primary side for one worker: answers its exchanges from `hub`. A malformed message is answered
 * with an error naming the bad field (never thrown). Each worker gets its own read cursor, so a
 * restarted worker replays the hub's capped record log and catches up.
 * @internal
 */
export function serveStateHub(hub: InMemoryStateHub, channel: IpcChannel): ServedWorker {
  let transport: SharedStateTransport | undefined;
  const seen = new Set<string>();
  const neverAborts = new AbortController().signal;
  const unsubscribe = channel.onMessage((message) => {
    if (!isJsonObject(message) || message['kind'] !== EXCHANGE) return;
    const id = typeof message['id'] === 'number' ? message['id'] : -1;
    const problem = exchangeProblem(message);
    if (problem !== undefined) {
      trySend(channel, { kind: REPLY, id, error: `bad exchange: ${problem}` } satisfies ReplyMessage);
      return;
    }
    const request = (message as unknown as ExchangeMessage).request;
    seen.add(request.replicaId);
    transport ??= hub.transport(request.replicaId);
    transport.exchange(request, neverAborts).then(
      (reply) => {
        trySend(channel, { kind: REPLY, id, reply } satisfies ReplyMessage);
      },
      (e: unknown) => {
        trySend(channel, { kind: REPLY, id, error: e instanceof Error ? e.message : String(e) } satisfies ReplyMessage);
      },
    );
  });
  return {
    release() {
      unsubscribe();
      for (const r of seen) hub.forget(r);
    },
  };
}
