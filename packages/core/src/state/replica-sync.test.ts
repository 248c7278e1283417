import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock/manual-clock.js';
import { EndpointPool } from '../endpoints/pool.js';
import { InMemoryStateHub } from './in-memory-hub.js';
import { ReplicaSync } from './replica-sync.js';
import type { SharedStateTransport } from './types.js';

const ENDPOINTS = ['10.0.0.1:8000', '10.0.0.2:8000'];

function replica(hub: InMemoryStateHub, id: string, clock: ManualClock, log: string[] = []): { sync: ReplicaSync; pool: EndpointPool } {
  const pool = new EndpointPool();
  for (const address of ENDPOINTS) pool.add({ address });
  const sync = new ReplicaSync({ transport: hub.transport(id), replicaId: id, clock, syncIntervalMs: 100, maxStalenessMs: 500, log: (l) => log.push(`${id}: ${l}`) });
  sync.attachPool(pool);
  return { sync, pool };
}

/** Lets the exchanges started by timers settle (the in-memory store answers in microtasks). */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

describe('ReplicaSync', () => {
  it('sums the peers’ in-flight load into every endpoint and keeps the local share apart', async () => {
    const hub = new InMemoryStateHub();
    const clock = new ManualClock();
    const a = replica(hub, 'a', clock);
    const b = replica(hub, 'b', clock);
    a.pool.addInFlight(ENDPOINTS[0] as string, 3, 300);
    b.pool.addInFlight(ENDPOINTS[0] as string, 2, 50);
    b.pool.addInFlight(ENDPOINTS[1] as string, 1, 10);
    await a.sync.syncNow();
    await b.sync.syncNow();
    await a.sync.syncNow();
    for (const r of [a, b]) {
      expect(r.pool.get(ENDPOINTS[0] as string)?.inFlightRequests).toBe(5);
      expect(r.pool.get(ENDPOINTS[0] as string)?.inFlightTokens).toBe(350);
      expect(r.pool.get(ENDPOINTS[1] as string)?.inFlightRequests).toBe(1);
    }
    expect(a.pool.localInFlight(ENDPOINTS[0] as string)).toEqual({ requests: 3, tokens: 300 });
    // Completing local requests moves only the local share.
    a.pool.addInFlight(ENDPOINTS[0] as string, -3, -300);
    expect(a.pool.get(ENDPOINTS[0] as string)?.inFlightRequests).toBe(2);
    expect(a.sync.status()).toMatchObject({ connected: true, peers: 1 });
  });

  it('delivers records to the other replicas only, and scopes channels', async () => {
    const hub = new InMemoryStateHub();
    const clock = new ManualClock();
    const a = replica(hub, 'a', clock);
    const b = replica(hub, 'b', clock);
    const seenA: unknown[] = [];
    const seenB: unknown[] = [];
    a.sync.scope('p1').subscribe('x', (d) => seenA.push(d));
    b.sync.scope('p1').subscribe('x', (d, from) => seenB.push([d, from]));
    b.sync.scope('p2').subscribe('x', () => seenB.push('wrong scope'));
    a.sync.scope('p1').publish('x', { n: 1 });
    await a.sync.syncNow();
    await b.sync.syncNow();
    await a.sync.syncNow();
    expect(seenB).toEqual([[{ n: 1 }, 'a']]);
    expect(seenA).toEqual([]);
  });

  it('serves from local state while the store is down, logs once each way, and rejoins', async () => {
    const hub = new InMemoryStateHub();
    const clock = new ManualClock();
    const log: string[] = [];
    const a = replica(hub, 'a', clock, log);
    const b = replica(hub, 'b', clock, log);
    a.sync.start();
    b.sync.start();
    await settle();
    b.pool.addInFlight(ENDPOINTS[0] as string, 4, 40);
    clock.advance(100);
    await settle();
    clock.advance(100);
    await settle();
    expect(a.pool.get(ENDPOINTS[0] as string)?.inFlightRequests).toBe(4);

    hub.setDown(true);
    for (let t = 0; t < 3; t++) {
      clock.advance(100);
      await settle();
    }
    // Within the staleness bound the last known peer load still counts.
    expect(a.pool.get(ENDPOINTS[0] as string)?.inFlightRequests).toBe(4);
    expect(a.sync.status().connected).toBe(false);
    for (let t = 0; t < 5; t++) {
      clock.advance(100);
      await settle();
    }
    expect(a.pool.get(ENDPOINTS[0] as string)?.inFlightRequests).toBe(0);
    expect(log.filter((l) => l.startsWith('a: ')).length).toBe(1);
    expect(log[0]).toContain('serving from local state');

    hub.setDown(false);
    hub.clear(); // restarted empty
    for (let t = 0; t < 3; t++) {
      clock.advance(100);
      await settle();
    }
    expect(a.pool.get(ENDPOINTS[0] as string)?.inFlightRequests).toBe(4);
    expect(log.filter((l) => l.startsWith('a: '))).toHaveLength(2);
    expect(log.at(-1)).toContain('sync works again');
    const text = await a.sync.metrics.registry.metrics();
    expect(text).toMatch(/switchyard_shared_state_connected 1/);
    expect(text).toMatch(/switchyard_shared_state_syncs_total\{result="error"\} [1-9]/);
    await a.sync.close();
    await b.sync.close();
    expect(clock.pendingTimers).toBe(0);
  });

  it('stops counting a replica that stopped syncing (its snapshot no longer changes)', async () => {
    const hub = new InMemoryStateHub();
    const clock = new ManualClock();
    const a = replica(hub, 'a', clock);
    const b = replica(hub, 'b', clock);
    b.pool.addInFlight(ENDPOINTS[1] as string, 7, 70);
    await b.sync.syncNow();
    await a.sync.syncNow();
    expect(a.pool.get(ENDPOINTS[1] as string)?.inFlightRequests).toBe(7);
    // b dies without a goodbye; a keeps syncing.
    for (let t = 0; t < 7; t++) {
      clock.advance(100);
      await a.sync.syncNow();
    }
    expect(a.pool.get(ENDPOINTS[1] as string)?.inFlightRequests).toBe(0);
    expect(a.sync.status().peers).toBe(0);
  });

  it('abandons an exchange that does not answer within the timeout (a slow store)', async () => {
    const clock = new ManualClock();
    const never: SharedStateTransport = { exchange: () => new Promise(() => undefined), close: () => Promise.resolve() };
    const log: string[] = [];
    const sync = new ReplicaSync({ transport: never, replicaId: 'slow', clock, syncIntervalMs: 100, exchangeTimeoutMs: 300, log: (l) => log.push(l) });
    const result = sync.syncNow();
    clock.advance(300);
    expect(await result).toBe(false);
    expect(log[0]).toContain('no answer within 300 ms');
  });

  it('keeps unsent records across a failed exchange and bounds the outbox', async () => {
    const hub = new InMemoryStateHub();
    const clock = new ManualClock();
    const pool = new EndpointPool();
    const a = new ReplicaSync({ transport: hub.transport('a'), replicaId: 'a', clock, maxOutbox: 3 });
    const b = new ReplicaSync({ transport: hub.transport('b'), replicaId: 'b', clock });
    b.attachPool(pool);
    const got: unknown[] = [];
    b.subscribe('c', (d) => got.push(d));
    hub.setDown(true);
    for (let i = 0; i < 5; i++) a.publish('c', i);
    expect(await a.syncNow()).toBe(false);
    hub.setDown(false);
    await a.syncNow();
    await b.syncNow();
    expect(got).toEqual([0, 1, 2]);
    expect(await a.metrics.registry.getSingleMetricAsString('switchyard_shared_state_records_total')).toContain('direction="dropped"} 2');
  });

  it('counts a record its handler rejects instead of throwing', async () => {
    const hub = new InMemoryStateHub();
    const clock = new ManualClock();
    const a = new ReplicaSync({ transport: hub.transport('a'), replicaId: 'a', clock });
    const b = new ReplicaSync({ transport: hub.transport('b'), replicaId: 'b', clock });
    b.subscribe('c', () => {
      throw new TypeError('bad');
    });
    a.publish('c', 'garbage');
    await a.syncNow();
    expect(await b.syncNow()).toBe(true);
    expect(await b.metrics.registry.getSingleMetricAsString('switchyard_shared_state_records_total')).toContain('direction="invalid"} 1');
  });

  it('names the bad option', () => {
    const hub = new InMemoryStateHub();
    expect(() => new ReplicaSync({ transport: hub.transport('a'), syncIntervalMs: 0 })).toThrow(/sharedState\.syncInterval/);
    expect(() => new ReplicaSync({ transport: hub.transport('a'), replicaId: '' })).toThrow(/sharedState\.replicaId/);
  });
});
