import { describe, expect, it } from 'vitest';
import { isSwitchyardError, type SwitchyardError } from '@switchyard/core';
import { settle } from '@switchyard/core/testing';
import { harness, request, track } from '../test-support/flow-harness.js';

const errorOf = (e: unknown): SwitchyardError => {
  if (!isSwitchyardError(e)) throw new Error(`expected a SwitchyardError, got ${String(e)}`);
  return e;
};

describe('admission', () => {
  it('grants at once while the pool is below its ceiling (work-conserving pass-through)', async () => {
    const { fc } = harness(2);
    const a = track(fc, request());
    const b = track(fc, request());
    await settle();
    expect(a.grant).toBeDefined();
    expect(b.grant).toBeDefined();
    expect(fc.stats()).toMatchObject({ queuedRequests: 0, inFlightRequests: 2 });
  });

  it('admitNow grants a pass-through request without a promise and declines once the pool is saturated', async () => {
    const { fc } = harness(1);
    const a = fc.admitNow(request());
    expect(a).toBeDefined();
    expect(fc.stats()).toMatchObject({ queuedRequests: 0, inFlightRequests: 1 });
    expect(fc.admitNow(request())).toBeUndefined();
    const b = track(fc, request());
    await settle();
    expect(b.grant).toBeUndefined();
    // With a request queued, nobody may overtake it even once a slot frees up.
    expect(fc.admitNow(request())).toBeUndefined();
    a?.release({ kind: 'success' });
    await settle();
    expect(b.grant).toBeDefined();
    b.grant?.release({ kind: 'success' });
    await fc.close();
    expect(fc.admitNow(request())).toBeUndefined();
    expect(fc.stats()).toMatchObject({ queuedRequests: 0, inFlightRequests: 0 });
  });

  it('queues once saturated and dispatches when a slot is released', async () => {
    const { fc } = harness(1);
    const a = track(fc, request());
    const b = track(fc, request());
    await settle();
    expect(a.grant).toBeDefined();
    expect(b.grant).toBeUndefined();
    expect(fc.stats().queuedRequests).toBe(1);
    a.grant?.release({ kind: 'success' });
    await settle();
    expect(b.grant).toBeDefined();
    b.grant?.release({ kind: 'success' });
    expect(fc.stats()).toMatchObject({ queuedRequests: 0, queuedBytes: 0, inFlightRequests: 0, inFlightTokens: 0 });
  });

  it('ignores a second release of the same grant', async () => {
    const { fc } = harness(1);
    const a = track(fc, request());
    const b = track(fc, request());
    const c = track(fc, request());
    await settle();
    a.grant?.release({ kind: 'success' });
    a.grant?.release({ kind: 'success' });
    await settle();
    expect(b.grant).toBeDefined();
    expect(c.grant).toBeUndefined();
    expect(fc.stats().inFlightRequests).toBe(1);
  });

  it('uses default-flow when the request has no fairness id', async () => {
    const { fc } = harness(0);
    const flows: string[] = [];
    fc.on('flowCreated', (id) => flows.push(id));
    track(fc, request({ fairnessId: '' }));
    await settle();
    expect(flows).toEqual(['default-flow']);
  });
});

describe('error contract (llm-d section 6 table)', () => {
  it('queue full: 429 rejected-saturated', async () => {
    const { fc } = harness(0, { config: { priorityBands: [{ priority: 0, maxRequests: 2 }] } });
    const queued = [track(fc, request()), track(fc, request())];
    const third = track(fc, request());
    await settle();
    const e = errorOf(third.error);
    expect([e.code, e.status, e.reason]).toEqual(['REJECTED_SATURATED', 429, 'rejected-saturated']);
    expect(queued.every((t) => t.error === undefined && t.grant === undefined)).toBe(true);
  });

  it('byte limit full: 429 rejected-saturated', async () => {
    const { fc } = harness(0, { config: { priorityBands: [{ priority: 0, maxBytes: '1k' }] } });
    const fits = track(fc, request({ bytes: 600 }));
    const over = track(fc, request({ bytes: 600 }));
    await settle();
    expect(fits.error).toBeUndefined();
    expect(errorOf(over.error).code).toBe('REJECTED_SATURATED');
  });

  it('queue full with an empty pool: 503 rejected-no-endpoints', async () => {
    const { fc, pool } = harness(4, { config: { maxRequests: 1 } });
    pool.remove('10.9.0.1:8000');
    const waiting = track(fc, request());
    const refused = track(fc, request());
    await settle();
    expect(waiting.error).toBeUndefined();
    const e = errorOf(refused.error);
    expect([e.code, e.status, e.reason]).toEqual(['REJECTED_NO_ENDPOINTS', 503, 'rejected-no-endpoints']);
  });

  it('TTL expiry with endpoints: 429 rejected-ttl-expired; without: 503 rejected-no-endpoints', async () => {
    const { fc, clock, pool } = harness(0, { config: { defaultRequestTTL: '1s' } });
    const a = track(fc, request());
    clock.advance(1000);
    await settle();
    const e = errorOf(a.error);
    expect([e.code, e.status, e.reason]).toEqual(['REJECTED_TTL_EXPIRED', 429, 'rejected-ttl-expired']);

    pool.remove('10.9.0.1:8000');
    const b = track(fc, request());
    clock.advance(1000);
    await settle();
    const e2 = errorOf(b.error);
    expect([e2.code, e2.status]).toEqual(['REJECTED_NO_ENDPOINTS', 503]);
  });

  it('caller cancels while queued: 503 rejected-context-cancelled, slot freed at once', async () => {
    const { fc } = harness(0, { config: { priorityBands: [{ priority: 0, maxRequests: 1 }] } });
    const ac = new AbortController();
    const a = track(fc, request({ bytes: 42 }), { signal: ac.signal });
    expect(fc.stats()).toMatchObject({ queuedRequests: 1, queuedBytes: 42 });
    ac.abort();
    expect(fc.stats()).toMatchObject({ queuedRequests: 0, queuedBytes: 0 });
    await settle();
    const e = errorOf(a.error);
    expect([e.code, e.status, e.reason]).toEqual(['REJECTED_CONTEXT_CANCELLED', 503, 'rejected-context-cancelled']);
    // The freed slot is usable immediately.
    const b = track(fc, request());
    await settle();
    expect(b.error).toBeUndefined();
  });

  it('already-aborted signal: rejected without queueing', async () => {
    const { fc } = harness(5);
    const a = track(fc, request(), { signal: AbortSignal.abort() });
    await settle();
    expect(errorOf(a.error).code).toBe('REJECTED_CONTEXT_CANCELLED');
    expect(fc.stats().inFlightRequests).toBe(0);
  });

  it('shutdown: queued and new requests get 503 rejected-shutting-down', async () => {
    const { fc } = harness(0);
    const queued = track(fc, request());
    void fc.close();
    const late = track(fc, request());
    await settle();
    for (const t of [queued, late]) {
      const e = errorOf(t.error);
      expect([e.code, e.status, e.reason]).toEqual(['REJECTED_SHUTTING_DOWN', 503, 'rejected-shutting-down']);
    }
  });
});
