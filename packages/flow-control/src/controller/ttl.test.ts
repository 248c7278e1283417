import { describe, expect, it } from 'vitest';
import { isSwitchyardError } from '@switchyard/core';
import { settle } from '@switchyard/core/testing';
import { harness, request, track, type Tracked } from '../test-support/flow-harness.js';

const codeOf = (t: Tracked): string | undefined => (isSwitchyardError(t.error) ? t.error.code : undefined);

describe('queue TTL', () => {
  it('expires a queued request exactly at the default 60s', async () => {
    const { fc, clock } = harness(0);
    const a = track(fc, request());
    clock.advance(59_999);
    await settle();
    expect(a.error).toBeUndefined();
    clock.advance(1);
    await settle();
    expect(codeOf(a)).toBe('REJECTED_TTL_EXPIRED');
    expect(fc.stats()).toMatchObject({ queuedRequests: 0, expiringRequests: 0 });
  });

  it('takes the per-request TTL, then the band TTL, then the default; 0 disables', async () => {
    const { fc, clock } = harness(0, {
      config: { defaultRequestTTL: '10s', priorityBands: [{ priority: 5, switchyard: { requestTTL: '2s' } }, { priority: 6, switchyard: { requestTTL: '0s' } }] },
    });
    const perRequest = track(fc, request({ priority: 5 }), { ttlMs: 1000 });
    const perBand = track(fc, request({ priority: 5 }));
    const byDefault = track(fc, request({ priority: 1 }));
    const never = track(fc, request({ priority: 6 }));
    clock.advance(1000);
    await settle();
    expect([codeOf(perRequest), codeOf(perBand)]).toEqual(['REJECTED_TTL_EXPIRED', undefined]);
    clock.advance(1000);
    await settle();
    expect(codeOf(perBand)).toBe('REJECTED_TTL_EXPIRED');
    clock.advance(8000);
    await settle();
    expect(codeOf(byDefault)).toBe('REJECTED_TTL_EXPIRED');
    clock.advance(3_600_000);
    await settle();
    expect(never.error).toBeUndefined();
    expect(fc.stats().expiringRequests).toBe(0);
  });

  it("shortens the TTL to the caller's deadline", async () => {
    const { fc, clock } = harness(0);
    const a = track(fc, request(), { deadline: 250 });
    clock.advance(250);
    await settle();
    expect(codeOf(a)).toBe('REJECTED_TTL_EXPIRED');
  });

  it('switches to the no-endpoint TTL, charged from the flip, while the pool is empty', async () => {
    const { fc, clock, pool } = harness(0, { config: { defaultRequestTTL: '10s', noEndpointRequestTTL: '60s' } });
    const a = track(fc, request());
    const b = track(fc, request());
    clock.advance(5000);
    pool.remove('10.9.0.1:8000');
    clock.advance(60_000 - 1);
    await settle();
    expect(a.error).toBeUndefined();
    clock.advance(1);
    await settle();
    // Expired while empty: 503 rejected-no-endpoints.
    expect(codeOf(a)).toBe('REJECTED_NO_ENDPOINTS');
    expect(codeOf(b)).toBe('REJECTED_NO_ENDPOINTS');

    const c = track(fc, request());
    clock.advance(20_000);
    pool.add({ address: '10.9.0.2:8000' });
    clock.advance(9_999);
    await settle();
    expect(c.error).toBeUndefined();
    clock.advance(1);
    await settle();
    // Back to the normal TTL, charged from the flip, and 429 since the pool has endpoints.
    expect(codeOf(c)).toBe('REJECTED_TTL_EXPIRED');
  });

  it('a dispatched request is no longer subject to its TTL', async () => {
    const { fc, clock } = harness(1);
    const a = track(fc, request());
    const b = track(fc, request(), { ttlMs: 100 });
    await settle();
    a.grant?.release({ kind: 'success' });
    await settle();
    expect(b.grant).toBeDefined();
    clock.advance(1000);
    await settle();
    expect(b.error).toBeUndefined();
  });
});
