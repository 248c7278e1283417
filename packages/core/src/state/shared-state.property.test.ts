import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock/manual-clock.js';
import { EndpointPool } from '../endpoints/pool.js';
import { InMemoryStateHub } from './in-memory-hub.js';
import { ReplicaSync } from './replica-sync.js';

const ENDPOINTS = ['10.0.0.1:8000', '10.0.0.2:8000', '10.0.0.3:8000'];

const op = fc.record({
  replica: fc.nat(2),
  endpoint: fc.nat(ENDPOINTS.length - 1),
  requests: fc.integer({ min: -2, max: 3 }),
  tokens: fc.integer({ min: -200, max: 300 }),
  publish: fc.boolean(),
  /** Which replicas sync after this operation (a bit set), and whether the store is up meanwhile. */
  syncs: fc.nat(7),
  storeUp: fc.boolean(),
});

describe('shared state (property)', () => {
  it('once every replica syncs twice with the store up, each endpoint shows the sum of all replicas’ own counts, and every record reached every other replica once, in order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 3 }), fc.array(op, { maxLength: 40 }), async (n, ops) => {
        const hub = new InMemoryStateHub();
        const clock = new ManualClock();
        const replicas = Array.from({ length: n }, (_, i) => {
          const pool = new EndpointPool();
          for (const address of ENDPOINTS) pool.add({ address });
          const sync = new ReplicaSync({ transport: hub.transport(`r${i}`), replicaId: `r${i}`, clock, maxStalenessMs: 60_000 });
          sync.attachPool(pool);
          const received: string[] = [];
          sync.subscribe('history', (d, from) => received.push(`${from}:${String(d)}`));
          return { pool, sync, received, published: [] as string[] };
        });
        let k = 0;
        for (const o of ops) {
          const r = replicas[o.replica % n];
          if (r === undefined) continue;
          r.pool.addInFlight(ENDPOINTS[o.endpoint] as string, o.requests, o.tokens);
          if (o.publish) {
            const data = String(k++);
            r.sync.publish('history', data);
            r.published.push(`${r.sync.replicaId}:${data}`);
          }
          hub.setDown(!o.storeUp);
          for (let i = 0; i < n; i++) if ((o.syncs >> i) & 1) await replicas[i]?.sync.syncNow();
          clock.advance(10);
        }
        hub.setDown(false);
        for (let round = 0; round < 2; round++) for (const r of replicas) await r.sync.syncNow();

        for (const id of ENDPOINTS) {
          let requests = 0;
          let tokens = 0;
          for (const r of replicas) {
            const local = r.pool.localInFlight(id);
            requests += local?.requests ?? 0;
            tokens += local?.tokens ?? 0;
          }
          for (const r of replicas) {
            expect(r.pool.get(id)?.inFlightRequests).toBe(requests);
            expect(r.pool.get(id)?.inFlightTokens).toBe(tokens);
          }
        }
        for (const r of replicas) {
          const expected = replicas.filter((o) => o !== r).flatMap((o) => o.published);
          expect([...r.received].sort()).toEqual([...expected].sort());
          for (const o of replicas) {
            if (o === r) continue;
            const fromO = r.received.filter((x) => x.startsWith(`${o.sync.replicaId}:`));
            expect(fromO).toEqual(o.published);
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});
