import { describe, expect, it } from 'vitest';
import { isSwitchyardError } from '@switchyard/core';
import type { QueueOutcome } from '@switchyard/flow-control';
import { settle } from '@switchyard/core/testing';
import { harness, request, track } from '../test-support/flow-harness.js';

describe('graceful close', () => {
  it('answers queued requests, refuses new ones, and resolves once in-flight grants are released', async () => {
    const { fc, pool } = harness(1);
    const running = track(fc, request());
    const queued = track(fc, request());
    await settle();
    const events: string[] = [];
    fc.on('drained', () => events.push('drained'));
    fc.on('closed', () => events.push('closed'));
    let closed = false;
    const closing = fc.close().then(() => {
      closed = true;
    });
    expect(fc.close()).toBe(fc.close());
    await settle();
    expect(isSwitchyardError(queued.error) && queued.error.code).toBe('REJECTED_SHUTTING_DOWN');
    expect(closed).toBe(false);
    expect(pool.listenerCount('metrics') + pool.listenerCount('added') + pool.listenerCount('removed')).toBe(0);
    running.grant?.release({ kind: 'success' });
    await closing;
    expect(events).toEqual(['drained', 'closed']);
    expect(fc.stats()).toMatchObject({ closed: true, queuedRequests: 0, inFlightRequests: 0 });
  });

  it('resolves at once when nothing is in flight', async () => {
    const { fc } = harness(1);
    await expect(fc.close()).resolves.toBeUndefined();
  });
});

describe('transition events', () => {
  it('reports exactly one outcome per request along with the specific event', async () => {
    const { fc, clock } = harness(1, { config: { priorityBands: [{ priority: 0, maxRequests: 3 }] } });
    const log: string[] = [];
    const outcomes = new Map<string, QueueOutcome[]>();
    fc.on('outcome', (r, o) => outcomes.set(r.id, [...(outcomes.get(r.id) ?? []), o]));
    for (const e of ['enqueued', 'dispatched', 'rejected', 'expired', 'cancelled', 'released'] as const) {
      fc.on(e, () => log.push(e));
    }
    const ac = new AbortController();
    const a = track(fc, request({ id: 'a' }));
    track(fc, request({ id: 'b' }), { ttlMs: 10 });
    track(fc, request({ id: 'c' }), { signal: ac.signal });
    track(fc, request({ id: 'd' }));
    track(fc, request({ id: 'e' }));
    ac.abort();
    clock.advance(10);
    await settle();
    a.grant?.release({ kind: 'success' });
    await settle();
    expect(log).toEqual(['dispatched', 'enqueued', 'enqueued', 'enqueued', 'rejected', 'cancelled', 'expired', 'released', 'dispatched']);
    expect(Object.fromEntries(outcomes)).toEqual({
      a: ['Dispatched'],
      b: ['EvictedTTL'],
      c: ['EvictedContextCancelled'],
      d: ['Dispatched'],
      e: ['RejectedCapacity'],
    });
  });

  it('creates bands and flows on demand and collects idle ones', async () => {
    const { fc, clock } = harness(5, { config: { switchyard: { flowGCTimeout: '1m', bandGCTimeout: '2m' } } });
    const log: string[] = [];
    fc.on('bandCreated', (p) => log.push(`+band ${p}`));
    fc.on('bandRemoved', (p) => log.push(`-band ${p}`));
    fc.on('flowCreated', (f, p) => log.push(`+flow ${f}@${p}`));
    fc.on('flowRemoved', (f, p) => log.push(`-flow ${f}@${p}`));
    const a = track(fc, request({ priority: 7, fairnessId: 'tenant-a' }));
    await settle();
    a.grant?.release({ kind: 'success' });
    clock.advance(30_000);
    track(fc, request({ priority: 0, fairnessId: 'tenant-b' }));
    clock.advance(30_000);
    expect(log).toEqual(['+band 7', '+flow tenant-a@7', '+flow tenant-b@0', '-flow tenant-a@7']);
    clock.advance(60_000);
    // Band 0 always exists; band 7 goes after two idle minutes.
    expect(log.slice(4)).toEqual(['-flow tenant-b@0', '-band 7']);
    expect(fc.stats().bands.map((b) => b.priority)).toEqual([0]);
  });
});
