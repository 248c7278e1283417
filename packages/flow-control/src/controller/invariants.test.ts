import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EndpointPool, ManualClock, createConcurrencyDetector, type AdmissionGrant } from '@switchyard/core';
import {
  createFlowController,
  createGlobalStrictFairness,
  createPriorityHoldback,
  createRoundRobinFairness,
  createStaticUsageLimit,
  createWeightedDrrFairness,
  type FairnessPolicy,
  type UsageLimitPolicy,
} from '@switchyard/flow-control';
import { settle } from '@switchyard/core/testing';
import { request } from '../test-support/flow-harness.js';

type Op =
  | { kind: 'admit'; priority: number; tenant: string; bytes: number; ttl: number | null; cancellable: boolean }
  | { kind: 'release'; pick: number }
  | { kind: 'cancel'; pick: number }
  | { kind: 'advance'; ms: number }
  | { kind: 'remove-endpoint' }
  | { kind: 'add-endpoint' };

const ops: fc.Arbitrary<Op[]> = fc.array(
  fc.oneof(
    { weight: 6, arbitrary: fc.record({ kind: fc.constant('admit' as const), priority: fc.constantFrom(-20, -10, 0, 5, 100), tenant: fc.constantFrom('a', 'b', 'c'), bytes: fc.integer({ min: 0, max: 3000 }), ttl: fc.option(fc.integer({ min: 0, max: 4000 })), cancellable: fc.boolean() }) },
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('release' as const), pick: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 2500 }) }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'remove-endpoint' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'add-endpoint' as const }) },
  ),
  { maxLength: 120 },
);

const GLOBAL_REQUESTS = 12;
const GLOBAL_BYTES = 16_000;
const DECLARED = [
  { priority: 100, maxRequests: 4, maxBytes: 6000 },
  { priority: 0, maxRequests: 5, maxBytes: 8000 },
  { priority: -10, maxRequests: 4, maxBytes: 4000 },
];

interface Entry {
  readonly id: string;
  readonly abort: AbortController | undefined;
  grant: AdmissionGrant | undefined;
  settled: boolean;
  released: boolean;
}

const fairnessArb = fc.constantFrom<() => FairnessPolicy>(
  () => createGlobalStrictFairness('fair'),
  () => createRoundRobinFairness('fair'),
  () => createWeightedDrrFairness({ name: 'fair', quantumTokens: 300, weights: { a: 2 } }),
);
const limitsArb = fc.constantFrom<() => UsageLimitPolicy>(
  () => createStaticUsageLimit(1),
  () => createStaticUsageLimit(0.75),
  () => createPriorityHoldback({ minCeiling: 0.4 }),
);

describe('flow controller invariants (property)', () => {
  it('outcomes, counters, band order, ceilings, capacity reservations and GC hold under any operation mix', async () => {
    await fc.assert(
      fc.asyncProperty(ops, fairnessArb, limitsArb, fc.integer({ min: 1, max: 3 }), fc.boolean(), async (script, makeFairness, makeLimits, slots, eviction) => {
        const clock = new ManualClock();
        const pool = new EndpointPool();
        let nextEndpoint = 0;
        const addEndpoint = (): void => {
          pool.add({ address: `10.7.0.${++nextEndpoint}:8000` });
        };
        addEndpoint();
        addEndpoint();
        const limits = makeLimits();
        const fairness = makeFairness();
        const ctl = createFlowController({
          pool,
          clock,
          detector: createConcurrencyDetector({ maxConcurrency: slots }),
          usageLimitPolicy: limits,
          plugins: new Map([['fair', fairness]]),
          metrics: false,
          config: {
            maxRequests: GLOBAL_REQUESTS,
            maxBytes: GLOBAL_BYTES,
            defaultRequestTTL: '3s',
            enableEviction: eviction,
            defaultPriorityBand: { fairnessPolicyRef: 'fair' },
            defaultNegativePriorityBand: { fairnessPolicyRef: 'fair' },
            priorityBands: DECLARED.map((b) => ({ ...b, fairnessPolicyRef: 'fair' })),
            switchyard: { flowGCTimeout: '1m', bandGCTimeout: '2m', evictionReclaimTimeout: '1s' },
          },
        });
        const entries: Entry[] = [];
        const outcomes = new Map<string, number>();
        const violations: string[] = [];
        ctl.on('outcome', (r) => outcomes.set(r.id, (outcomes.get(r.id) ?? 0) + 1));
        ctl.on('dispatched', (r) => {
          const s = ctl.stats();
          const higher = s.bands.filter((b) => b.priority > r.request.priority && b.queuedRequests > 0);
          if (higher.length > 0) violations.push(`dispatched ${r.request.priority} while band ${higher[0]?.priority} had queued work`);
          const priorities = s.bands.map((b) => b.priority);
          const ceiling = limits.computeLimits(0, priorities)[priorities.indexOf(r.request.priority)] ?? 1;
          const before = pool.size === 0 ? 1 : (s.inFlightRequests - 1) / (pool.size * slots);
          if (!(before < ceiling)) violations.push(`dispatched ${r.request.priority} at saturation ${before} >= ceiling ${ceiling}`);
        });

        const check = (): void => {
          const s = ctl.stats();
          let below = 0;
          let belowBytes = 0;
          for (const b of [...s.bands].reverse()) {
            const declared = DECLARED.filter((d) => d.priority >= b.priority);
            if (DECLARED.some((d) => d.priority === b.priority)) {
              const reserved = declared.reduce((n, d) => n + Math.min(d.maxRequests, GLOBAL_REQUESTS), 0);
              const reservedBytes = declared.reduce((n, d) => n + Math.min(d.maxBytes, GLOBAL_BYTES), 0);
              if (below > Math.max(0, GLOBAL_REQUESTS - reserved)) violations.push(`bands below ${b.priority} hold ${below} requests of its reservation`);
              if (belowBytes > Math.max(0, GLOBAL_BYTES - reservedBytes)) violations.push(`bands below ${b.priority} hold ${belowBytes} bytes of its reservation`);
            }
            if (b.queuedRequests > b.maxRequests || b.queuedBytes > b.maxBytes) violations.push(`band ${b.priority} over its limits`);
            below += b.queuedRequests;
            belowBytes += b.queuedBytes;
          }
          if (s.queuedRequests > GLOBAL_REQUESTS || s.queuedBytes > GLOBAL_BYTES) violations.push('over the global limits');
        };

        for (const op of script) {
          if (op.kind === 'admit') {
            const abort = op.cancellable ? new AbortController() : undefined;
            const r = request({ priority: op.priority, fairnessId: op.tenant, bytes: op.bytes });
            const e: Entry = { id: r.id, abort, grant: undefined, settled: false, released: false };
            entries.push(e);
            const options = { ...(abort === undefined ? {} : { signal: abort.signal }), ...(op.ttl === null ? {} : { ttlMs: op.ttl }) };
            ctl.admit(r, options).then(
              (g) => {
                e.grant = g;
                e.settled = true;
              },
              () => {
                e.settled = true;
              },
            );
          } else if (op.kind === 'release') {
            const held = entries.filter((e) => e.grant !== undefined && !e.released);
            const e = held[op.pick % Math.max(1, held.length)];
            if (e !== undefined) {
              e.released = true;
              e.grant?.release({ kind: 'success' });
            }
          } else if (op.kind === 'cancel') {
            const open = entries.filter((e) => !e.settled && e.abort !== undefined);
            open[op.pick % Math.max(1, open.length)]?.abort?.abort();
          } else if (op.kind === 'advance') {
            clock.advance(op.ms);
          } else if (op.kind === 'remove-endpoint') {
            const first = pool.list()[0];
            if (first !== undefined) pool.remove(first.id);
          } else {
            addEndpoint();
          }
          await settle();
          check();
        }

        // Wind down: endpoints back, every grant released, queues drained by dispatch or TTL.
        if (pool.size === 0) addEndpoint();
        for (let round = 0; round < 200 && entries.some((e) => !e.settled || (e.grant !== undefined && !e.released)); round++) {
          for (const e of entries) {
            if (e.grant !== undefined && !e.released) {
              e.released = true;
              e.grant.release({ kind: 'success' });
            }
          }
          await settle();
          clock.advance(500);
          await settle();
        }
        expect(violations).toEqual([]);
        expect(entries.every((e) => e.settled)).toBe(true);
        expect(entries.every((e) => outcomes.get(e.id) === 1)).toBe(true);
        expect(ctl.stats()).toMatchObject({ queuedRequests: 0, queuedBytes: 0, inFlightRequests: 0, inFlightTokens: 0, expiringRequests: 0, pendingRevocations: 0 });
        // Idle flows and on-demand bands are collected; declared bands and band 0 stay.
        clock.advance(3 * 60_000);
        expect(ctl.stats().bands.map((b) => [b.priority, b.flows])).toEqual([
          [100, 0],
          [0, 0],
          [-10, 0],
        ]);
        await ctl.close();
      }),
      { numRuns: 150 },
    );
  });
});
