import { describe, expect, it } from 'vitest';
import { createEdfOrdering, createSloDeadlineOrdering } from '@switchyard/flow-control';
import { settle } from '@switchyard/core/testing';
import { harness, request, track } from '../test-support/flow-harness.js';

describe('ordering policies', () => {
  it('fcfs (default) serves a flow in arrival order', async () => {
    const { fc } = harness(1);
    const blocker = track(fc, request());
    const queued = ['x', 'y', 'z'].map((id) => track(fc, request({ id })));
    await settle();
    const order: string[] = [];
    fc.on('dispatched', (r) => order.push(r.request.id));
    for (let i = 0; i < 4; i++) {
      (i === 0 ? blocker : queued[i - 1])!.grant!.release({ kind: 'success' });
      await settle();
    }
    expect(order).toEqual(['x', 'y', 'z']);
  });

  it('edf serves the earliest effective deadline first (TTL or caller deadline); no TTL last', async () => {
    const edf = createEdfOrdering('edf');
    const { fc, clock } = harness(1, { config: { defaultPriorityBand: { orderingPolicyRef: 'edf' } }, plugins: new Map([['edf', edf]]) });
    const blocker = track(fc, request());
    await settle();
    const order: string[] = [];
    fc.on('dispatched', (r) => {
      order.push(r.request.id);
      (r as unknown as { release(o: unknown): void }).release({ kind: 'success' });
    });
    track(fc, request({ id: 'ttl-30s' }), { ttlMs: 30_000 });
    track(fc, request({ id: 'no-ttl' }), { ttlMs: 0 });
    clock.advance(1000);
    track(fc, request({ id: 'ttl-5s' }), { ttlMs: 5000 });
    track(fc, request({ id: 'deadline-3s' }), { deadline: 3000 });
    blocker.grant?.release({ kind: 'success' });
    for (let i = 0; i < 6; i++) await settle();
    expect(order).toEqual(['deadline-3s', 'ttl-5s', 'ttl-30s', 'no-ttl']);
  });

  it('slo-deadline serves received + x-llm-d-slo-ttft-ms first; requests without an SLO last', async () => {
    const slo = createSloDeadlineOrdering('slo');
    const { fc } = harness(1, { config: { defaultPriorityBand: { orderingPolicyRef: 'slo' } }, plugins: new Map([['slo', slo]]) });
    const blocker = track(fc, request());
    await settle();
    const order: string[] = [];
    fc.on('dispatched', (r) => {
      order.push(r.request.id);
      (r as unknown as { release(o: unknown): void }).release({ kind: 'success' });
    });
    track(fc, request({ id: 'none' }));
    track(fc, request({ id: 'loose', receivedAt: 0, sloTtftMs: 5000 }));
    track(fc, request({ id: 'tight', receivedAt: 100, sloTtftMs: 200 }));
    track(fc, request({ id: 'late-tight', receivedAt: 900, sloTtftMs: 200 }));
    blocker.grant?.release({ kind: 'success' });
    for (let i = 0; i < 6; i++) await settle();
    expect(order).toEqual(['tight', 'late-tight', 'loose', 'none']);
  });
});
