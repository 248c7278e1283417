import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { EndpointPool, ManualClock, createConcurrencyDetector, seededRandom, isSwitchyardError, type AdmissionGrant } from '@switchyard/core';
import { createFlowController, createRoundRobinFairness, type QueueOutcome } from '@switchyard/flow-control';
import { request } from '../test-support/flow-harness.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;


const heapMb = (): number => {
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

describe('soak', () => {
  it('200k requests with random priorities, tenants, sizes, cancellations and endpoint churn leak nothing', async () => {
    const TOTAL = 200_000;
    const random = seededRandom(42);
    const clock = new ManualClock();
    const pool = new EndpointPool();
    const live: string[] = [];
    let endpointSeq = 0;
    const addEndpoint = (): void => {
      const address = `10.8.${(++endpointSeq >> 8) & 255}.${endpointSeq & 255}:8000`;
      pool.add({ address });
      live.push(address);
    };
    for (let i = 0; i < 8; i++) addEndpoint();
    const ctl = createFlowController({
      pool,
      clock,
      detector: createConcurrencyDetector({ maxConcurrency: 16 }),
      plugins: new Map([['rr', createRoundRobinFairness('rr')]]),
      config: {
        maxRequests: '600',
        maxBytes: '64Mi',
        defaultRequestTTL: '1s',
        enableEviction: true,
        defaultPriorityBand: { fairnessPolicyRef: 'rr' },
        defaultNegativePriorityBand: { fairnessPolicyRef: 'rr' },
        priorityBands: [
          { priority: 100, maxRequests: 200, fairnessPolicyRef: 'rr' },
          { priority: 0, maxRequests: 300, fairnessPolicyRef: 'rr' },
          { priority: -10, maxRequests: 30, fairnessPolicyRef: 'rr', switchyard: { requestTTL: '300ms' } },
        ],
        switchyard: { flowGCTimeout: '30s', bandGCTimeout: '60s', evictionReclaimTimeout: '5s' },
      },
    });
    const outcomes = new Map<QueueOutcome, number>();
    ctl.on('outcome', (_r, o) => outcomes.set(o, (outcomes.get(o) ?? 0) + 1));
    let revocations = 0;
    ctl.on('revoked', () => revocations++);
    let settled = 0;
    let released = 0;
    let granted = 0;
    const wrongErrors: unknown[] = [];
    const priorities = [100, 100, 0, 0, 0, 0, -10, -10, 7, -3];

    const serve = (grant: AdmissionGrant): void => {
      granted++;
      let done = false;
      const finish = (): void => {
        if (done) return;
        done = true;
        released++;
        grant.release(random() < 0.9 ? { kind: 'success', usage: { promptTokens: 100, completionTokens: 50 } } : { kind: 'error' });
      };
      // Evicted callers abort and release shortly after; most finish on their own.
      grant.revoked?.addEventListener('abort', () => clock.setTimeout(finish, 20), { once: true });
      clock.setTimeout(finish, 20 + random() * 200);
    };

    let admitted = 0;
    let heapAtQuarter = 0;
    while (admitted < TOTAL) {
      // ~52 arrivals per 100 ms of virtual time with bursts of 300; capacity is 16 slots per endpoint x ~8 per second.
      const burst = random() < 0.1 ? 300 : Math.floor(random() * 50);
      for (let i = 0; i < burst && admitted < TOTAL; i++, admitted++) {
        const abort = random() < 0.05 ? new AbortController() : undefined;
        const r = request({ priority: priorities[Math.floor(random() * priorities.length)] ?? 0, fairnessId: `tenant-${Math.floor(random() * 40)}`, bytes: 100 + Math.floor(random() * 20_000) });
        ctl.admit(r, abort === undefined ? {} : { signal: abort.signal }).then(
          (g) => {
            settled++;
            serve(g);
          },
          (e: unknown) => {
            settled++;
            if (!isSwitchyardError(e) || e.status < 429) wrongErrors.push(e);
          },
        );
        if (abort !== undefined) {
          clock.setTimeout(() => {
            abort.abort();
          }, random() * 3000);
        }
      }
      // Endpoint churn, including an occasional empty pool.
      const roll = random();
      if (roll < 0.01 && live.length > 0) pool.remove(live.splice(Math.floor(random() * live.length), 1)[0]!);
      else if (roll < 0.04 && live.length < 8) addEndpoint();
      clock.advance(100);
      await Promise.resolve();
      await Promise.resolve();
      if (admitted >= TOTAL / 4 && heapAtQuarter === 0) heapAtQuarter = heapMb();
    }
    // Drain: endpoints back, then let every timer (service, TTL, cancellation, reclaim, GC) fire.
    while (live.length < 8) addEndpoint();
    for (let i = 0; i < 2000 && (settled < TOTAL || released < granted || clock.pendingTimers > 0); i++) {
      clock.advance(1000);
      await Promise.resolve();
      await Promise.resolve();
    }
    const heapAtEnd = heapMb();

    expect(wrongErrors).toEqual([]);
    expect(settled).toBe(TOTAL);
    expect(released).toBe(granted);
    expect([...outcomes.values()].reduce((a, b) => a + b, 0)).toBe(TOTAL);
    expect(outcomes.get('Dispatched')).toBe(granted);
    // Every kind of ending happened, so the run exercised them all.
    for (const o of ['Dispatched', 'RejectedCapacity', 'EvictedTTL', 'EvictedContextCancelled'] as const) expect(outcomes.get(o) ?? 0).toBeGreaterThan(0);
    expect(ctl.stats()).toMatchObject({ queuedRequests: 0, queuedBytes: 0, inFlightRequests: 0, inFlightTokens: 0, expiringRequests: 0, pendingRevocations: 0 });
    expect(ctl.stats().bands.map((b) => [b.priority, b.flows])).toEqual([
      [100, 0],
      [0, 0],
      [-10, 0],
    ]);
    expect(revocations).toBeGreaterThan(0);
    expect(clock.pendingTimers).toBe(0);
    // Bounded heap: nothing per request survives the run.
    expect(heapAtEnd - heapAtQuarter).toBeLessThan(16);
    await ctl.close();
  }, 60_000);
});
