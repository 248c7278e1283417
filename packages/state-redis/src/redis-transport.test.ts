import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EndpointPool, ManualClock } from '@switchyard/core';
import { createRedisSharedState, startRedisServer, type RedisServerHandle } from '@switchyard/redis';
import { startTcpProxy } from './test-support/tcp-proxy.js';

const ENDPOINTS = ['10.0.0.1:8000', '10.0.0.2:8000'];

let redis: RedisServerHandle;
let prefixN = 0;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis.stop();
});

interface Replica {
  readonly sync: ReturnType<typeof createRedisSharedState>;
  readonly pool: EndpointPool;
  readonly log: string[];
}

function replicas(n: number, url = redis.url, urls: string[] = []): Replica[] {
  const clock = new ManualClock();
  const keyPrefix = `t${prefixN++}:`;
  return Array.from({ length: n }, (_, i) => {
    const pool = new EndpointPool();
    for (const address of ENDPOINTS) pool.add({ address });
    const log: string[] = [];
    const sync = createRedisSharedState({ url: urls[i] ?? url, keyPrefix, replicaId: `r${i}`, clock, maxStalenessMs: 60_000, commandTimeoutMs: 300, maxReconnectDelayMs: 100, log: (l) => log.push(l) });
    sync.attachPool(pool);
    return { sync, pool, log };
  });
}

/** Every replica's first sync (it waits for its connection). */
async function connectAll(rs: readonly Replica[]): Promise<void> {
  for (const r of rs) expect(await untilSynced(r)).toBe(true);
}

async function syncAll(rs: readonly Replica[]): Promise<boolean[]> {
  const out: boolean[] = [];
  for (const r of rs) out.push(await r.sync.syncNow());
  return out;
}

/** Syncs until `r` succeeds again (the client reconnects with backoff in the background); bounded. */
async function untilSynced(r: Replica, attempts = 100): Promise<boolean> {
  for (let i = 0; i < attempts; i++) {
    if (await r.sync.syncNow()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

async function closeAll(rs: readonly Replica[]): Promise<void> {
  await Promise.all(rs.map((r) => r.sync.close()));
}

describe('shared state on a real redis-server', () => {
  it('two and three replicas converge on the summed in-flight load and exchange records', async () => {
    for (const n of [2, 3]) {
      const rs = replicas(n);
      rs.forEach((r, i) => {
        r.pool.addInFlight(ENDPOINTS[0] as string, i + 1, 100 * (i + 1));
        r.sync.publish('history', `from r${i}`);
      });
      const got = rs.map(() => [] as string[]);
      rs.forEach((r, i) => r.sync.subscribe('history', (d) => got[i]?.push(String(d))));
      await connectAll(rs);
      await syncAll(rs);
      await syncAll(rs);
      const total = (n * (n + 1)) / 2;
      for (const r of rs) {
        expect(r.pool.get(ENDPOINTS[0] as string)?.inFlightRequests).toBe(total);
        expect(r.pool.get(ENDPOINTS[0] as string)?.inFlightTokens).toBe(100 * total);
        expect(r.sync.status()).toMatchObject({ connected: true, peers: n - 1 });
      }
      got.forEach((g, i) => {
        expect(g.sort()).toEqual(rs.map((_, j) => `from r${j}`).filter((x) => x !== `from r${i}`));
      });
      // One pipelined round trip per sync: HSET, HGETALL, XREAD, plus XADD when there are records.
      const stats = rs[1]?.sync.transport.stats();
      expect(stats?.commands).toBeLessThanOrEqual(4 * (stats?.exchanges ?? 0));
      await closeAll(rs);
    }
  });

  it('keeps serving on local counts when redis-server is killed, logs once, and rejoins after a restart with empty state', async () => {
    const rs = replicas(2);
    const [a, b] = rs as [Replica, Replica];
    b.pool.addInFlight(ENDPOINTS[1] as string, 3, 30);
    a.pool.addInFlight(ENDPOINTS[1] as string, 1, 10);
    await connectAll(rs);
    await syncAll(rs);
    expect(a.pool.get(ENDPOINTS[1] as string)?.inFlightRequests).toBe(4);

    await redis.stop(true);
    expect(await a.sync.syncNow()).toBe(false);
    expect(await a.sync.syncNow()).toBe(false);
    expect(a.sync.status().connected).toBe(false);
    expect(a.log).toHaveLength(1);
    expect(a.log[0]).toContain('serving from local state');
    // Local accounting goes on while the store is gone.
    a.pool.addInFlight(ENDPOINTS[1] as string, 1, 10);
    expect(a.pool.localInFlight(ENDPOINTS[1] as string)).toEqual({ requests: 2, tokens: 20 });

    await redis.restart();
    expect(await untilSynced(a)).toBe(true);
    expect(await untilSynced(b)).toBe(true);
    await syncAll(rs);
    expect(a.pool.get(ENDPOINTS[1] as string)?.inFlightRequests).toBe(5);
    expect(b.pool.get(ENDPOINTS[1] as string)?.inFlightRequests).toBe(5);
    expect(a.log).toHaveLength(2);
    expect(a.log[1]).toContain('sync works again');
    // Records published after the restart still flow (the stream cursor survives an empty restart).
    const got: unknown[] = [];
    b.sync.subscribe('c', (d) => got.push(d));
    a.sync.publish('c', 'after restart');
    await syncAll(rs);
    expect(got).toEqual(['after restart']);
    await closeAll(rs);
  });

  it('a partitioned replica serves alone and rejoins; the others keep sharing', async () => {
    const proxy = await startTcpProxy(redis.port);
    const rs = replicas(3, redis.url, [proxy.url]);
    const [a, b, c] = rs as [Replica, Replica, Replica];
    for (const r of rs) r.pool.addInFlight(ENDPOINTS[0] as string, 2, 20);
    await connectAll(rs);
    await syncAll(rs);
    expect(a.pool.get(ENDPOINTS[0] as string)?.inFlightRequests).toBe(6);

    proxy.cut();
    b.pool.addInFlight(ENDPOINTS[0] as string, 1, 10);
    expect(await a.sync.syncNow()).toBe(false);
    await b.sync.syncNow();
    await c.sync.syncNow();
    expect(await c.sync.syncNow()).toBe(true);
    expect(c.pool.get(ENDPOINTS[0] as string)?.inFlightRequests).toBe(7);
    expect(a.log.at(-1)).toContain('serving from local state');

    proxy.heal();
    expect(await untilSynced(a)).toBe(true);
    await syncAll(rs);
    expect(a.pool.get(ENDPOINTS[0] as string)?.inFlightRequests).toBe(7);
    expect(a.log.at(-1)).toContain('sync works again');
    await closeAll(rs);
    await proxy.close();
  });

  it('a slow redis (no answer within the command timeout) fails the sync instead of holding it', async () => {
    const proxy = await startTcpProxy(redis.port);
    const [a] = replicas(1, proxy.url) as [Replica];
    expect(await untilSynced(a)).toBe(true);
    proxy.stall();
    expect(await a.sync.syncNow()).toBe(false);
    expect(a.log[0]).toContain('redis did not answer within 300 ms');
    proxy.heal();
    expect(await untilSynced(a)).toBe(true);
    await a.sync.close();
    await proxy.close();
  });

  it('foreign or malformed data in the keys is skipped, never thrown', async () => {
    const rs = replicas(2);
    const [a, b] = rs as [Replica, Replica];
    await connectAll(rs);
    const { createClient } = await import('@redis/client');
    const raw = createClient({ url: redis.url, RESP: 2, maintNotifications: 'disabled' });
    raw.on('error', () => undefined);
    await raw.connect();
    const prefix = `t${prefixN - 1}:`;
    await raw.sendCommand(['HSET', `${prefix}load`, 'intruder', 'not json', 'x2', JSON.stringify({ s: 1, t: Date.now(), l: { default: { [ENDPOINTS[0] as string]: ['a', -1] } } })]);
    await raw.sendCommand(['XADD', `${prefix}events`, '*', 'r', 'intruder', 'd', '{bad']);
    await raw.sendCommand(['XADD', `${prefix}events`, '*', 'junk', '1']);
    raw.destroy();
    expect(await b.sync.syncNow()).toBe(true);
    expect(await a.sync.syncNow()).toBe(true);
    expect(a.pool.get(ENDPOINTS[0] as string)?.inFlightRequests).toBe(0);
    expect(a.sync.transport.stats().invalid).toBeGreaterThanOrEqual(2);
    await closeAll(rs);
  });

  it('rejects a bad URL naming the field', () => {
    expect(() => createRedisSharedState({ url: 'http://x' })).toThrow(/sharedState\.redis\.url/);
    expect(() => createRedisSharedState({ url: 'redis://127.0.0.1:1', commandTimeoutMs: -1 })).toThrow(/sharedState\.redis\.commandTimeoutMs/);
  });
});
