import { describe, expect, it } from 'vitest';
import { ManualClock, EndpointPool } from '@switchyard/core';
import { createPriorityHoldback, createStaticUsageLimit, priorityHoldbackPolicyPlugin, staticUsageLimitPolicyPlugin } from '@switchyard/flow-control';
import { settle } from '@switchyard/core/testing';
import { harness, request, track } from '../test-support/flow-harness.js';

const ctx = { name: 'p', clock: new ManualClock(), pool: new EndpointPool(), lookup: () => undefined };

describe('static-usage-limit-policy', () => {
  it('gives every band the same ceiling and gates dispatch at it', async () => {
    expect(createStaticUsageLimit(0.7).computeLimits(0, [5, 0, -5])).toEqual([0.7, 0.7, 0.7]);
    const { fc } = harness(4, { usageLimitPolicy: createStaticUsageLimit(0.5) });
    const all = Array.from({ length: 4 }, () => track(fc, request()));
    await settle();
    expect(all.filter((t) => t.grant !== undefined)).toHaveLength(2);
  });
  it('defaults to 1.0 through its plugin definition', () => {
    const policy = staticUsageLimitPolicyPlugin.create(staticUsageLimitPolicyPlugin.parameters.parse(undefined), ctx);
    expect((policy as ReturnType<typeof createStaticUsageLimit>).computeLimits(0.3, [1])).toEqual([1]);
  });
});

describe('priority-holdback-policy', () => {
  it('spreads ceilings by rank from maxCeiling to minCeiling over the active bands', () => {
    const p = createPriorityHoldback({ minCeiling: 0.4, maxCeiling: 0.9 });
    expect(p.computeLimits(0, [100, 0, -10])).toEqual([0.9, 0.65, 0.4]);
    expect(p.computeLimits(0, [-10])).toEqual([0.9]);
  });
  it('spreads by value in the value domain', () => {
    const p = createPriorityHoldback({ domain: 'value', minCeiling: 0.5 });
    const [a, b, c] = p.computeLimits(0, [100, 0, -100]);
    expect([a, b, c]).toEqual([1, 0.75, 0.5]);
    expect(p.computeLimits(0, [3, 3])).toEqual([1, 1]);
  });
  it('reads explicit ceilings, falling back to the closest lower configured priority', () => {
    const p = createPriorityHoldback({ domain: 'explicit', ceilings: { 100: 1, 0: 0.8, [-10]: 0.3 } });
    expect(p.computeLimits(0, [100, 50, -10, -50])).toEqual([1, 0.8, 0.3, 0.3]);
  });
  it('holds lower bands back while higher ones keep dispatching', async () => {
    const { fc } = harness(4, {
      config: { priorityBands: [{ priority: 0 }, { priority: -10 }] },
      usageLimitPolicy: createPriorityHoldback({ minCeiling: 0.5 }),
    });
    const blocker = track(fc, request({ priority: 0 }));
    const low = Array.from({ length: 3 }, () => track(fc, request({ priority: -10 })));
    const high = Array.from({ length: 2 }, () => track(fc, request({ priority: 0 })));
    await settle();
    // Bands 0 and -10 get ceilings 1.0 and 0.5: band -10 stops at half the pool, band 0 fills it.
    expect(low.map((t) => t.grant !== undefined)).toEqual([true, false, false]);
    expect(high.map((t) => t.grant !== undefined)).toEqual([true, true]);
    for (const t of [blocker, ...high]) t.grant?.release({ kind: 'success' });
    await settle();
    // Even with band 0 idle, band -10 stays below its ceiling: the rest is held back for band 0.
    expect(low.map((t) => t.grant !== undefined)).toEqual([true, true, false]);
    expect(fc.saturation()).toBe(0.5);
  });
  it('gives a lone band the max ceiling (work-conserving)', async () => {
    const { fc } = harness(2, { usageLimitPolicy: createPriorityHoldback({ minCeiling: 0.1 }) });
    const all = Array.from({ length: 2 }, () => track(fc, request({ priority: 0 })));
    await settle();
    expect(all.every((t) => t.grant !== undefined)).toBe(true);
  });
  it('validates its parameters like llm-d', () => {
    const parse = (p: unknown): unknown => priorityHoldbackPolicyPlugin.parameters.parse(p);
    expect(() => parse({})).toThrow(/minCeiling/);
    expect(() => parse({ minCeiling: 1 })).toThrow(/minCeiling/);
    expect(() => parse({ minCeiling: 0.5, maxCeiling: 0.4 })).toThrow(/below maxCeiling/);
    expect(() => parse({ domain: 'explicit' })).toThrow(/ceilings/);
    expect(() => parse({ domain: 'explicit', ceilings: { '10': 0.5, '0': 0.9 } })).toThrow(/must not increase/);
    expect(() => parse({ domain: 'explicit', ceilings: { '10': 0.9 }, minCeiling: 0.2 })).toThrow(/minCeiling/);
    expect(() => parse({ minCeiling: 0.2, ceilings: { '1': 1 } })).toThrow(/explicit/);
    expect(parse({ strategy: 'linear-proportional', minCeiling: 0.2 })).toEqual({ domain: 'value', minCeiling: 0.2, maxCeiling: 1 });
    expect(parse({ minCeiling: 0.2 })).toEqual({ domain: 'rank', minCeiling: 0.2, maxCeiling: 1 });
  });
});
