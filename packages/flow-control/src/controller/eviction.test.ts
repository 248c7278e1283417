import { describe, expect, it } from 'vitest';
import { isSwitchyardError } from '@switchyard/core';
import { settle } from '@switchyard/core/testing';
import { dial, harness, request, track } from '../test-support/flow-harness.js';

const evicting = { enableEviction: true };

async function counter(fc: ReturnType<typeof harness>['fc'], name: string): Promise<Record<string, number>> {
  const m = await fc.metrics!.registry.getSingleMetric(name)!.get();
  return Object.fromEntries(m.values.map((v) => [Object.values(v.labels).join('/'), v.value]));
}

describe('in-flight eviction', () => {
  it('revokes sheddable grants, lowest priority first then most recently dispatched, to unblock a higher band', async () => {
    const { fc, clock } = harness(3, { config: evicting, metrics: {} });
    clock.advance(1);
    const a = track(fc, request({ priority: -20 }));
    clock.advance(1);
    const b = track(fc, request({ priority: -10 }));
    clock.advance(1);
    const c = track(fc, request({ priority: -10 }));
    await settle();
    const revoked: string[] = [];
    fc.on('revoked', (r) => revoked.push(r.request.id));
    const urgent = track(fc, request({ priority: 0 }));
    await settle();
    expect(revoked).toEqual([a.request.id, c.request.id]);
    expect(a.grant?.revoked?.aborted).toBe(true);
    expect(b.grant?.revoked?.aborted).toBe(false);
    const reason: unknown = c.grant?.revoked?.reason;
    expect(isSwitchyardError(reason) && [reason.code, reason.status, reason.reason]).toEqual(['EVICTED', 429, 'evicted']);
    // Capacity returns only when the evicted callers release.
    expect(urgent.grant).toBeUndefined();
    a.grant?.release({ kind: 'cancelled' });
    await settle();
    expect(urgent.grant).toBeDefined();
    expect(urgent.grant?.revoked).toBeUndefined();
    c.grant?.release({ kind: 'cancelled' });
    expect(await counter(fc, 'llm_d_epp_flow_control_revocations_issued_total')).toEqual({ '-20/': 1, '-10/': 1 });
    expect(await counter(fc, 'llm_d_epp_flow_control_revocations_total')).toEqual({ 'confirmed/': 2 });
  });

  it('records the reclaim target, the revocations awaiting their end, and how long each end took', async () => {
    const detector = dial(0);
    const { fc, clock } = harness(2, { detector, config: { ...evicting, switchyard: { evictionReclaimTimeout: '5s', maxEvictionsPerCycle: 2 } }, metrics: {} });
    const registry = fc.metrics!.registry;
    const value = async (name: string, sample = name): Promise<number | undefined> => {
      const m = await registry.getSingleMetric(name)!.get();
      return (m.values as { metricName?: string; value: number }[]).find((v) => (v.metricName ?? name) === sample)?.value;
    };
    expect(await value('llm_d_epp_flow_control_reclaim_target')).toBe(0);
    expect(await value('llm_d_epp_flow_control_pending_reclaim')).toBe(0);
    const sheddable = [track(fc, request({ priority: -1 })), track(fc, request({ priority: -1 }))];
    await settle();
    // The pool overshoots to 1.25 while a higher band waits: 0.25 above its ceiling of 1.
    detector.value = 1.25;
    track(fc, request({ priority: 1 }));
    await settle();
    expect(await value('llm_d_epp_flow_control_reclaim_target')).toBeCloseTo(0.25);
    expect(await value('llm_d_epp_flow_control_pending_reclaim')).toBe(2);
    clock.advance(30);
    sheddable[0]!.grant?.release({ kind: 'cancelled' });
    expect(await value('llm_d_epp_flow_control_pending_reclaim')).toBe(1);
    expect(await value('llm_d_epp_flow_control_revocation_confirmation_seconds', 'llm_d_epp_flow_control_revocation_confirmation_seconds_sum')).toBeCloseTo(0.03);
    // A revocation that times out leaves pending without a confirmation time.
    clock.advance(5000);
    expect(await value('llm_d_epp_flow_control_pending_reclaim')).toBe(0);
    expect(await value('llm_d_epp_flow_control_revocation_confirmation_seconds', 'llm_d_epp_flow_control_revocation_confirmation_seconds_count')).toBe(1);
  });

  it('counts revocations whose capacity never came back, then revokes more', async () => {
    const { fc, clock } = harness(2, { config: { ...evicting, switchyard: { evictionReclaimTimeout: '5s', maxEvictionsPerCycle: 1 } }, metrics: {} });
    const sheddable = [track(fc, request({ priority: -1 })), track(fc, request({ priority: -1 }))];
    await settle();
    const timedOut: string[] = [];
    fc.on('revocationTimedOut', (r) => timedOut.push(r.request.id));
    track(fc, request({ priority: 1 }));
    await settle();
    expect(sheddable.map((t) => t.grant?.revoked?.aborted)).toEqual([false, true]);
    expect(fc.stats().pendingRevocations).toBe(1);
    clock.advance(5000);
    expect(timedOut).toEqual([sheddable[1]!.request.id]);
    expect(await counter(fc, 'llm_d_epp_flow_control_revocations_total')).toEqual({ 'timed_out/': 1 });
    // The next wake-up may revoke again since nothing is awaiting reclaim.
    track(fc, request({ priority: 1 }));
    await settle();
    expect(sheddable[0]!.grant?.revoked?.aborted).toBe(true);
  });

  it('never revokes non-negative or equal-or-higher priorities, and is off by default', async () => {
    const on = harness(2, { config: evicting });
    const zero = track(on.fc, request({ priority: 0 }));
    const low = track(on.fc, request({ priority: -5 }));
    await settle();
    track(on.fc, request({ priority: -5 }));
    await settle();
    expect(low.grant?.revoked?.aborted).toBe(false);
    expect(zero.grant?.revoked).toBeUndefined();

    const off = harness(1);
    const shed = track(off.fc, request({ priority: -5 }));
    track(off.fc, request({ priority: 10 }));
    await settle();
    expect(shed.grant?.revoked).toBeUndefined();
  });
});
