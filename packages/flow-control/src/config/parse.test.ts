import { describe, expect, it } from 'vitest';
import { createConcurrencyDetector, isSwitchyardError } from '@switchyard/core';
import { createRoundRobinFairness, createWeightedDrrFairness, parseFlowControlConfig } from '@switchyard/flow-control';

const messageOf = (raw: unknown, plugins?: ReadonlyMap<string, never>): string => {
  try {
    parseFlowControlConfig(raw, plugins);
  } catch (e) {
    expect(isSwitchyardError(e) && e.code).toBe('CONFIG_INVALID');
    return (e as Error).message;
  }
  throw new Error('expected parseFlowControlConfig to fail');
};

describe('parseFlowControlConfig', () => {
  it('applies llm-d defaults to an absent block', () => {
    const cfg = parseFlowControlConfig(undefined);
    expect(cfg).toMatchObject({ maxRequests: 0, maxBytes: 0, defaultRequestTtlMs: 60_000, noEndpointRequestTtlMs: 60_000, enableEviction: false, bands: [] });
    expect(cfg.defaultBand).toMatchObject({ maxRequests: 5000, maxBytes: 1e9, requestTtlMs: undefined });
    expect([cfg.defaultBand.fairness.type, cfg.defaultBand.ordering.type]).toEqual(['global-strict-fairness-policy', 'fcfs-ordering-policy']);
    expect([cfg.usageLimitPolicy.type, cfg.detector.type]).toEqual(['static-usage-limit-policy', 'utilization-detector']);
    expect([cfg.flowGcMs, cfg.bandGcMs]).toEqual([300_000, 600_000]);
  });

  it('treats band limits of 0 as the defaults and lets the no-endpoint TTL follow defaultRequestTTL', () => {
    const cfg = parseFlowControlConfig({ defaultRequestTTL: '5m', priorityBands: [{ priority: 1, maxRequests: 0, maxBytes: '0' }] });
    expect(cfg.bands[0]).toMatchObject({ maxRequests: 5000, maxBytes: 1e9 });
    expect(cfg.noEndpointRequestTtlMs).toBe(300_000);
    expect(parseFlowControlConfig({ noEndpointRequestTTL: '2s' }).noEndpointRequestTtlMs).toBe(2000);
    expect(parseFlowControlConfig({ defaultRequestTTL: '0s' }).defaultRequestTtlMs).toBe(0);
  });

  it('resolves references by plugin name and sorts bands by priority', () => {
    const plugins = new Map<string, never>([
      ['rr', createRoundRobinFairness('rr') as never],
      ['drr', createWeightedDrrFairness({ name: 'drr' }) as never],
      ['cd', createConcurrencyDetector({ name: 'cd', maxConcurrency: 7 }) as never],
    ]);
    const cfg = parseFlowControlConfig(
      {
        saturationDetector: { pluginRef: 'cd' },
        defaultNegativePriorityBand: { fairnessPolicyRef: 'drr' },
        priorityBands: [{ priority: -1 }, { priority: 9, fairnessPolicyRef: 'rr' }],
      },
      plugins,
    );
    expect(cfg.bands.map((b) => [b.priority, b.fairness.name])).toEqual([
      [9, 'rr'],
      [-1, 'global-strict-fairness-policy'],
    ]);
    expect(cfg.defaultNegativeBand.fairness.name).toBe('drr');
    expect(cfg.detector.name).toBe('cd');
  });

  it('names the offending path in every error', () => {
    expect(messageOf({ priorityBands: [{ priority: 1 }, { priority: 2, maxRequests: 'lots' }] })).toMatch(
      /^flowControl\.priorityBands\[1\]\.maxRequests: expected a quantity such as "500", "1k" or "10Gi", got "lots"/,
    );
    expect(messageOf({ defaultRequestTTL: '60 seconds' })).toMatch(/^flowControl\.defaultRequestTTL: expected a duration/);
    expect(messageOf({ priorityBands: [{ priority: 1 }, { priority: 1 }] })).toMatch(/flowControl\.priorityBands\[1\]\.priority: duplicate priority 1/);
    expect(messageOf({ priorityBands: [{ maxRequests: 1 }] })).toMatch(/flowControl\.priorityBands\[0\]\.priority/);
    expect(messageOf({ maxRequest: 5 })).toMatch(/flowControl: .*maxRequest/);
    expect(messageOf({ enableEviction: 'yes' })).toMatch(/flowControl\.enableEviction/);
    expect(messageOf({ saturationDetector: { pluginRef: 'nope' } })).toBe('flowControl.saturationDetector.pluginRef: no plugin named "nope" in plugins');
    const plugins = new Map<string, never>([['rr', createRoundRobinFairness('rr') as never]]);
    expect(messageOf({ priorityBands: [{ priority: 0, orderingPolicyRef: 'rr' }] }, plugins)).toBe(
      'flowControl.priorityBands[0].orderingPolicyRef: plugin "rr" (type round-robin-fairness-policy) is not an ordering policy',
    );
  });
});
