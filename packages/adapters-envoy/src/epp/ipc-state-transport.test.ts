import { EndpointPool, InMemoryStateHub, ManualClock, ReplicaSync, type ExchangeRequest } from '@switchyard/core';
import { describe, expect, it } from 'vitest';
import { ipcStateTransport, serveStateHub, type IpcChannel } from './ipc-state-transport.js';

/** Two ends of one in-process channel; delivery is asynchronous like cluster IPC. `dead` makes sends throw. */
function channelPair(): { worker: IpcChannel; primary: IpcChannel; kill(): void; deliverNothing(): void } {
  const handlers = { worker: new Set<(m: unknown) => void>(), primary: new Set<(m: unknown) => void>() };
  let dead = false;
  let drop = false;
  const end = (self: 'worker' | 'primary', other: 'worker' | 'primary'): IpcChannel => ({
    send(message) {
      if (dead) throw new Error('channel closed');
      if (drop) return;
      const copy: unknown = JSON.parse(JSON.stringify(message));
      queueMicrotask(() => {
        for (const h of handlers[other]) h(copy);
      });
    },
    onMessage(handler) {
      handlers[self].add(handler);
      return () => handlers[self].delete(handler);
    },
  });
  return { worker: end('worker', 'primary'), primary: end('primary', 'worker'), kill: () => (dead = true), deliverNothing: () => (drop = true) };
}

const request = (replicaId: string, seq: number, inFlight: number, records: ExchangeRequest['records'] = []): ExchangeRequest => ({
  replicaId,
  seq,
  load: { default: { 'pod-a': [inFlight, inFlight * 100] } },
  records,
});
const live = (): AbortSignal => new AbortController().signal;

describe('shared state over cluster IPC', () => {
  it('lets each worker see the other workers’ load and records through the primary’s hub', async () => {
    const hub = new InMemoryStateHub();
    const a = channelPair();
    const b = channelPair();
    serveStateHub(hub, a.primary);
    serveStateHub(hub, b.primary);
    const ta = ipcStateTransport(a.worker);
    const tb = ipcStateTransport(b.worker);

    await ta.exchange(request('w1', 1, 3, [{ channel: 'default/session', data: { key: 's1', endpoint: 'pod-a' } }]), live());
    const replyB = await tb.exchange(request('w2', 1, 5), live());
    expect(replyB.peers).toEqual([{ replicaId: 'w1', seq: 1, load: { default: { 'pod-a': [3, 300] } } }]);
    expect(replyB.records).toEqual([{ replicaId: 'w1', channel: 'default/session', data: { key: 's1', endpoint: 'pod-a' } }]);

    const replyA = await ta.exchange(request('w1', 2, 3), live());
    expect(replyA.peers).toEqual([{ replicaId: 'w2', seq: 1, load: { default: { 'pod-a': [5, 500] } } }]);
    expect(replyA.records).toEqual([]); // its own record is not echoed back
  });

  it('forgets a worker’s load when it is released (the worker exited)', async () => {
    const hub = new InMemoryStateHub();
    const a = channelPair();
    const b = channelPair();
    const servedA = serveStateHub(hub, a.primary);
    serveStateHub(hub, b.primary);
    await ipcStateTransport(a.worker).exchange(request('w1', 1, 7), live());
    servedA.release();
    const reply = await ipcStateTransport(b.worker).exchange(request('w2', 1, 0), live());
    expect(reply.peers).toEqual([]);
  });

  it('rejects, never hangs, when the primary is gone, the exchange is aborted or the transport is closed', async () => {
    const gone = channelPair();
    gone.kill();
    await expect(ipcStateTransport(gone.worker).exchange(request('w1', 1, 1), live())).rejects.toThrow(/unreachable/);

    const silent = channelPair();
    silent.deliverNothing();
    const t = ipcStateTransport(silent.worker);
    const ac = new AbortController();
    const aborted = t.exchange(request('w1', 1, 1), ac.signal);
    ac.abort();
    await expect(aborted).rejects.toThrow(/aborted/);

    const pendingAtClose = t.exchange(request('w1', 2, 1), live());
    await t.close();
    await expect(pendingAtClose).rejects.toThrow(/closed/);
    await expect(t.exchange(request('w1', 3, 1), live())).rejects.toThrow(/closed/);
  });

  it('answers a malformed exchange with an error naming the field, without throwing', async () => {
    const hub = new InMemoryStateHub();
    const ch = channelPair();
    serveStateHub(hub, ch.primary);
    const replies: unknown[] = [];
    ch.worker.onMessage((m) => replies.push(m));
    ch.worker.send({ kind: 'switchyard:state-exchange', id: 9, request: { replicaId: 'w1', seq: 1, load: {}, records: 'nope' } });
    ch.worker.send({ kind: 'switchyard:state-exchange', id: 10, request: { replicaId: '', seq: 1, load: {}, records: [] } });
    ch.worker.send('not even an object');
    await new Promise((r) => setTimeout(r, 0));
    expect(replies).toEqual([
      { kind: 'switchyard:state-reply', id: 9, error: 'bad exchange: request.records must be an array' },
      { kind: 'switchyard:state-reply', id: 10, error: 'bad exchange: request.replicaId must be a non-empty string' },
    ]);
  });

  it('reports a hub failure as a rejected exchange', async () => {
    const hub = new InMemoryStateHub();
    hub.setDown(true);
    const ch = channelPair();
    serveStateHub(hub, ch.primary);
    await expect(ipcStateTransport(ch.worker).exchange(request('w1', 1, 1), live())).rejects.toThrow(/state hub: store is down/);
  });

  it('makes in-flight counts fleet-wide across workers when ReplicaSync runs over it', async () => {
    const hub = new InMemoryStateHub();
    const clock = new ManualClock();
    const worker = (id: string): { sync: ReplicaSync; pool: EndpointPool } => {
      const ch = channelPair();
      serveStateHub(hub, ch.primary);
      const pool = new EndpointPool();
      pool.add({ address: '10.0.0.1:8000' });
      const sync = new ReplicaSync({ transport: ipcStateTransport(ch.worker), replicaId: id, clock, syncIntervalMs: 100, maxStalenessMs: 500, log: () => undefined });
      sync.attachPool(pool);
      return { sync, pool };
    };
    const w1 = worker('w1');
    const w2 = worker('w2');
    w1.pool.addInFlight('10.0.0.1:8000', 3, 300);
    w2.pool.addInFlight('10.0.0.1:8000', 2, 200);
    await w1.sync.syncNow();
    await w2.sync.syncNow();
    await w1.sync.syncNow();
    for (const w of [w1, w2]) expect(w.pool.get('10.0.0.1:8000')?.inFlightRequests).toBe(5);
    expect(w1.pool.localInFlight('10.0.0.1:8000')).toEqual({ requests: 3, tokens: 300 });
  });
});
