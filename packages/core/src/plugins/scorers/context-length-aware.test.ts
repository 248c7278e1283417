import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EndpointPicker, EndpointPool, contextLengthAwarePlugin, createDefaultRegistry, loadConfig, parseRequest, type Filter, type Scorer } from '@switchyard/core';
import { cycleContext, endpoints, instantiate, schedulingRequest, scoresOf } from '../../testing/index.js';
import { parseTokenRange, tokenRangeScore } from './context-length-aware.js';

const LABEL = 'llm-d.ai/context-length-range';

describe('context-length-aware', () => {
  it('reads "min-max" ranges as llm-d does', () => {
    expect(parseTokenRange('0-2048')).toEqual({ min: 0, max: 2048 });
    expect(parseTokenRange(' 2048 - 8192 ')).toEqual({ min: 2048, max: 8192 });
    for (const bad of ['', '2048', '1-2-3', 'a-b', '10-5', '1.5-3']) expect(parseTokenRange(bad)).toBeUndefined();
  });

  it('scores in-range pods above 0.3 (tighter ranges and more headroom higher), others below, by distance', () => {
    expect(tokenRangeScore(100, { min: 100, max: 100 })).toBe(1);
    const tight = tokenRangeScore(1000, { min: 0, max: 2048 });
    const wide = tokenRangeScore(1000, { min: 0, max: 131072 });
    expect(tight).toBeGreaterThan(wide);
    expect(wide).toBeGreaterThan(0.3);
    // 0.3 + (0.7·1/(1+0.2048) + 0.3·(1048/2048))·0.7
    expect(tight).toBeCloseTo(0.3 + (0.7 / 1.2048 + (0.3 * 1048) / 2048) * 0.7, 12);
    expect(tokenRangeScore(9000, { min: 0, max: 8192 })).toBeCloseTo(0.3 / (1 + 808 / 1000), 12);
    expect(tokenRangeScore(9000, { min: 0, max: 8192 })).toBeGreaterThan(tokenRangeScore(9000, { min: 0, max: 2048 }));
    fc.assert(
      fc.property(fc.nat(200_000), fc.nat(200_000), fc.nat(200_000), (length, a, b) => {
        const range = { min: Math.min(a, b), max: Math.max(a, b) };
        const s = tokenRangeScore(length, range);
        const inside = length >= range.min && length <= range.max;
        expect(inside ? s > 0.3 && s <= 1 : s >= 0 && s < 0.3).toBe(true);
      }),
    );
  });

  it('gives 0.5 to pods without the label and 0 to a malformed one; filters only when enabled', () => {
    const eps = endpoints(4, undefined, (i) => [{ [LABEL]: '0-2048' }, { [LABEL]: '4096-8192' }, {}, { [LABEL]: 'oops' }][i] ?? {});
    const request = schedulingRequest(); // a short prompt
    const scorer = instantiate(contextLengthAwarePlugin) as Scorer;
    const scores = scoresOf(scorer, request, eps);
    expect(scores[0]).toBeGreaterThan(0.3);
    expect(scores[1]).toBeLessThan(0.3);
    expect(scores.slice(2)).toEqual([0.5, 0]);
    expect((scorer as Partial<Filter>).filter).toBeUndefined();
    const filter = instantiate(contextLengthAwarePlugin, { enableFiltering: true }) as Filter;
    expect(filter.filter(cycleContext(), request, eps).map((e) => e.id)).toEqual(['e0', 'e2']);
  });

  it('in a profile it filters and scores at once, and routes a short prompt to the short-context pod', async () => {
    const pool = new EndpointPool();
    pool.add({ id: 'long', address: '10.0.0.1:8000', labels: { [LABEL]: '2048-131072' } });
    pool.add({ id: 'short', address: '10.0.0.2:8000', labels: { [LABEL]: '0-2048' } });
    pool.add({ id: 'broken', address: '10.0.0.3:8000', labels: { [LABEL]: 'n/a' } });
    const yaml = `apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\nplugins:\n- type: context-length-aware\n  parameters: { enableFiltering: true }\n- type: max-score-picker\nschedulingProfiles:\n- name: default\n  plugins:\n  - pluginRef: context-length-aware\n    weight: 8\n  - pluginRef: max-score-picker\n`;
    const config = loadConfig(yaml, { registry: createDefaultRegistry(), pool });
    const profile = config.profiles.get('default');
    expect(profile?.filters.map((f) => f.type)).toEqual(['context-length-aware']);
    expect(profile?.scorers.map((s) => [s.scorer.type, s.weight])).toEqual([['context-length-aware', 8]]);
    const picker = new EndpointPicker({ pool, config });
    const decision = await picker.pick(parseRequest({ path: '/v1/completions', headers: {}, body: JSON.stringify({ model: 'm', prompt: 'short question' }) }));
    expect(decision.primary.id).toBe('short');
    decision.complete({ kind: 'success' });
  });
});
