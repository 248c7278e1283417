import { describe, expect, it } from 'vitest';
import { ROLE_LABEL, createConcurrencyDetector, createUtilizationDetector, type EndpointMetrics } from '@switchyard/core';
import { createFlowController } from '@switchyard/flow-control';
import { settle } from '@switchyard/core/testing';
import { dial, harness, pool, request, sample, track } from '../test-support/flow-harness.js';

const metrics = (waiting: number, updatedAt: number): EndpointMetrics => ({
  waitingQueueSize: waiting,
  runningRequestsSize: 0,
  kvCacheUsagePercent: 0,
  activeModels: [],
  waitingModels: [],
  maxActiveModels: 0,
  cacheBlockSize: 0,
  cacheNumBlocks: 0,
  updatedAt,
});

describe('dispatch order (llm-d case 13)', () => {
  it('dispatches every request of priority 20 before any of priority 10', async () => {
    const gate = dial(1);
    const { fc, pool: p } = harness(1, { detector: gate });
    const order: number[] = [];
    fc.on('dispatched', (r) => order.push(r.request.priority));
    for (let i = 0; i < 3; i++) {
      track(fc, request({ priority: 10 }));
      track(fc, request({ priority: 20 }));
    }
    expect(order).toEqual([]);
    gate.value = 0;
    p.setMetrics('10.9.0.1:8000', metrics(0, 0));
    await settle();
    expect(order).toEqual([20, 20, 20, 10, 10, 10]);
  });

  it('does not dispatch while the prefill stage is saturated, even with decode at 0.3', async () => {
    const p = pool(0);
    p.add({ address: '10.9.1.1:8000', labels: { [ROLE_LABEL]: 'prefill' } });
    p.add({ address: '10.9.1.2:8000', labels: { [ROLE_LABEL]: 'decode' } });
    p.addInFlight('10.9.1.1:8000', 15, 0);
    p.addInFlight('10.9.1.2:8000', 3, 0);
    const fc = createFlowController({ pool: p, detector: createConcurrencyDetector({ maxConcurrency: 10 }), metrics: false });
    const a = track(fc, request());
    await settle();
    expect(a.grant).toBeUndefined();
    expect(fc.saturationByStage()).toEqual({ value: 1.5, prefill: 1.5, decode: 0.3 });
    p.addInFlight('10.9.1.1:8000', -14, 0);
    p.setMetrics('10.9.1.1:8000', metrics(0, 0));
    await settle();
    expect(a.grant).toBeDefined();
  });
});

describe('event-driven dispatch', () => {
  it('refills a released slot in the same event-loop turn', async () => {
    const { fc } = harness(1);
    const a = track(fc, request());
    const b = track(fc, request());
    await settle();
    let nextTurn = false;
    setImmediate(() => {
      nextTurn = true;
    });
    a.grant?.release({ kind: 'success' });
    await b.done;
    expect(b.grant).toBeDefined();
    expect(nextTurn).toBe(false);
  });

  it('dispatches as many requests as the gate allows in one pass', async () => {
    const p = pool(1);
    const fc = createFlowController({ pool: p, detector: createConcurrencyDetector({ maxConcurrency: 5 }) });
    const passCount = (): Promise<number> => sample(fc.metrics!.registry, 'llm_d_epp_flow_control_dispatch_cycle_duration_seconds_count');
    p.addInFlight('10.9.0.1:8000', 5, 0);
    const waiting = Array.from({ length: 8 }, () => track(fc, request()));
    await settle();
    expect(fc.stats().queuedRequests).toBe(8);
    const before = await passCount();
    p.addInFlight('10.9.0.1:8000', -5, 0);
    p.setMetrics('10.9.0.1:8000', metrics(0, 0));
    await settle();
    // Grants not yet visible on the endpoint count as pending load, so the pass stops at 5.
    expect(waiting.filter((t) => t.grant !== undefined)).toHaveLength(5);
    expect(fc.stats().queuedRequests).toBe(3);
    expect((await passCount()) - before).toBe(1);
  });

  it('works with a scheduler that accounts in-flight load, whatever the order of release and accounting', async () => {
    const p = pool(1);
    const ep = '10.9.0.1:8000';
    const fc = createFlowController({ pool: p, detector: createConcurrencyDetector({ maxConcurrency: 2 }), metrics: false });
    const all = Array.from({ length: 6 }, () => track(fc, request()));
    const seen = new Set<unknown>();
    const account = (): void => {
      for (const t of all) {
        if (t.grant !== undefined && !seen.has(t)) {
          seen.add(t);
          p.addInFlight(ep, 1, 0);
        }
      }
    };
    await settle();
    account();
    expect(seen.size).toBe(2);
    // Release before the in-flight decrement (as a picker might): the wake-up runs after both.
    all[0]!.grant!.release({ kind: 'success' });
    p.addInFlight(ep, -1, 0);
    await settle();
    account();
    expect(seen.size).toBe(3);
    // Decrement first, then release.
    p.addInFlight(ep, -1, 0);
    all[1]!.grant!.release({ kind: 'success' });
    await settle();
    account();
    expect(seen.size).toBe(4);
    expect(p.get(ep)?.inFlightRequests).toBe(2);
  });

  it('wakes up on fresh metrics with the utilization detector and treats stale metrics as saturated', async () => {
    const p = pool(1);
    const { clock } = harness(1);
    const fc = createFlowController({ pool: p, clock, detector: createUtilizationDetector({ queueDepthThreshold: 5 }, clock), metrics: false });
    p.setMetrics('10.9.0.1:8000', metrics(10, clock.now()));
    const a = track(fc, request());
    await settle();
    expect(a.grant).toBeUndefined();
    p.setMetrics('10.9.0.1:8000', metrics(0, clock.now()));
    await settle();
    expect(a.grant).toBeDefined();
    clock.advance(500);
    const b = track(fc, request());
    await settle();
    expect(b.grant).toBeUndefined();
    p.setMetrics('10.9.0.1:8000', metrics(0, clock.now()));
    await settle();
    expect(b.grant).toBeDefined();
  });

  it('emits blocked and unblocked on transitions only', async () => {
    const gate = dial(1);
    const { fc, pool: p } = harness(1, { detector: gate });
    const events: string[] = [];
    fc.on('blocked', (prio, s, c) => events.push(`blocked ${prio} ${s} ${c}`));
    fc.on('unblocked', () => events.push('unblocked'));
    track(fc, request({ priority: 3 }));
    track(fc, request({ priority: 3 }));
    p.setMetrics('10.9.0.1:8000', metrics(0, 0));
    await settle();
    gate.value = 0;
    p.setMetrics('10.9.0.1:8000', metrics(0, 0));
    await settle();
    expect(events).toEqual(['blocked 3 1 1', 'unblocked']);
  });
});
