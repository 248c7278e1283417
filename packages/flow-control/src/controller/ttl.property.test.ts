import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { settle } from '@switchyard/core/testing';
import { harness, request } from '../test-support/flow-harness.js';

describe('TTL (property)', () => {
  it('no request waits past its TTL by more than one clock step, and none dispatches after it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ ttl: fc.integer({ min: 1, max: 5000 }), gapMs: fc.integer({ min: 0, max: 700 }) }), { minLength: 1, maxLength: 40 }),
        fc.array(fc.integer({ min: 1, max: 900 }), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 4 }),
        async (arrivals, steps, slots) => {
          const { fc: ctl, clock } = harness(slots);
          const queued = new Map<string, { at: number; ttl: number }>();
          const late: string[] = [];
          const ttlOf = new Map<string, number>();
          ctl.on('enqueued', (r) => queued.set(r.request.id, { at: clock.now(), ttl: ttlOf.get(r.request.id) ?? 0 }));
          ctl.on('expired', (r, waited) => {
            queued.delete(r.request.id);
            if (waited !== ttlOf.get(r.request.id)) late.push(`${r.request.id} expired after ${waited}ms, TTL ${ttlOf.get(r.request.id)}`);
          });
          ctl.on('dispatched', (r, waited) => {
            queued.delete(r.request.id);
            if (waited > (ttlOf.get(r.request.id) ?? 0)) late.push(`${r.request.id} dispatched after ${waited}ms`);
            // Hold each grant for a while so the pool stays saturated.
            const grant = r as unknown as { release(o: unknown): void };
            clock.setTimeout(() => {
              grant.release({ kind: 'success' });
            }, 1500);
          });
          const pending = [...arrivals];
          let nextArrival = 0;
          for (const step of steps) {
            while (pending.length > 0 && nextArrival <= clock.now()) {
              const a = pending.shift()!;
              const r = request();
              ttlOf.set(r.id, a.ttl);
              ctl.admit(r, { ttlMs: a.ttl }).catch(() => undefined);
              nextArrival = clock.now() + a.gapMs;
            }
            clock.advance(step);
            await settle();
            for (const [id, q] of queued) {
              if (clock.now() - q.at > q.ttl) late.push(`${id} still queued ${clock.now() - q.at}ms after enqueue, TTL ${q.ttl}`);
            }
          }
          expect(late).toEqual([]);
        },
      ),
      { numRuns: 120 },
    );
  });
});
