import { describe, expect, it } from 'vitest';
import { attributeKey, createDefaultRegistry, endpointAttributeFilterPlugin, endpointAttributeScorerPlugin, isFilter, loadConfig, scalarAttributeKey } from '@switchyard/core';
import { cycleContext, endpoints, instantiate, poolOf, schedulingRequest, scoresOf } from '@switchyard/core/testing';

const eps = endpoints(4);
/** A request whose `key` attribute holds `values[i]` for endpoint i (undefined: no value). */
function requestWith(key: string, values: readonly (number | undefined)[]) {
  const r = schedulingRequest();
  const map = new Map<string, number>();
  values.forEach((v, i) => {
    if (v !== undefined) map.set(eps[i]!.id, v);
  });
  r.attributes.set(attributeKey<ReadonlyMap<string, number>>(key), map);
  return r;
}
const GPU = 'GPUUtilization/dcgm-extractor';
const threshold = (operator: string, value: number) => ({ type: 'threshold', threshold: { operator, value } });

function filterIds(params: object, request = requestWith(GPU, [0.2, 0.95, undefined, 0.9])): string[] {
  const f = instantiate(endpointAttributeFilterPlugin, params);
  if (!isFilter(f)) throw new Error('not a filter');
  return f.filter(cycleContext(), request, eps).map((e) => e.id);
}

describe('endpoint-attribute-filter', () => {
  it('keeps value <op> threshold, and endpoints without the value by default (onMissing Pass)', () => {
    expect(filterIds({ attribute: GPU, algorithm: threshold('LessThanOrEqual', 0.9) })).toEqual(['e0', 'e2', 'e3']);
    expect(filterIds({ attribute: GPU, algorithm: threshold('LessThan', 0.9) })).toEqual(['e0', 'e2']);
    expect(filterIds({ attribute: GPU, algorithm: threshold('GreaterThan', 0.9) })).toEqual(['e1', 'e2']);
    expect(filterIds({ attribute: GPU, algorithm: threshold('GreaterThanOrEqual', 0.9) })).toEqual(['e1', 'e2', 'e3']);
    expect(filterIds({ attribute: GPU, algorithm: threshold('Equal', 0.9) })).toEqual(['e2', 'e3']);
    expect(filterIds({ attribute: GPU, algorithm: threshold('NotEqual', 0.9) })).toEqual(['e0', 'e1', 'e2']);
  });

  it('drops endpoints without the value with onMissing Fail; fallbackOnEmpty returns every candidate', () => {
    expect(filterIds({ attribute: GPU, onMissing: 'Fail', algorithm: threshold('LessThan', 0.5) })).toEqual(['e0']);
    expect(filterIds({ attribute: GPU, onMissing: 'Fail', algorithm: threshold('LessThan', 0.1) })).toEqual([]);
    expect(filterIds({ attribute: GPU, onMissing: 'Fail', fallbackOnEmpty: true, algorithm: threshold('LessThan', 0.1) })).toEqual(['e0', 'e1', 'e2', 'e3']);
  });

  it('resolves the key from attribute and producer as llm-d does', () => {
    expect(scalarAttributeKey('GPUUtilization/dcgm-extractor').name).toBe('GPUUtilization/dcgm-extractor');
    expect(scalarAttributeKey('queue-depth').name).toBe('queue-depth/core-metrics-extractor');
    expect(scalarAttributeKey('queue-depth', 'my-extractor').name).toBe('queue-depth/my-extractor');
    expect(scalarAttributeKey('llm-d.ai/multicluster-queue-size', '').name).toBe('llm-d.ai/multicluster-queue-size');
    const r = requestWith('GPUUtilization/gpu', [0.1, 0.99, 0.5, 0.5]);
    expect(filterIds({ attribute: 'GPUUtilization', producer: 'gpu', algorithm: threshold('LessThan', 0.6) }, r)).toEqual(['e0', 'e2', 'e3']);
  });

  it('rejects what llm-d rejects, naming the field', () => {
    expect(() => instantiate(endpointAttributeFilterPlugin, { attribute: GPU, algorithm: { type: 'percentile' } })).toThrow(/algorithm/);
    expect(() => instantiate(endpointAttributeFilterPlugin, { attribute: GPU, algorithm: { type: 'threshold' } })).toThrow(/threshold/);
    expect(() => instantiate(endpointAttributeFilterPlugin, { attribute: GPU, algorithm: threshold('Less', 1) })).toThrow(/operator/);
    expect(() => instantiate(endpointAttributeFilterPlugin, { attribute: GPU, onMissing: 'Keep', algorithm: threshold('LessThan', 1) })).toThrow(/onMissing/);
    expect(() => instantiate(endpointAttributeFilterPlugin, { attribute: '', algorithm: threshold('LessThan', 1) })).toThrow(/attribute/);
  });
});

describe('endpoint-attribute-scorer', () => {
  const scorer = (algorithm: object) => instantiate(endpointAttributeScorerPlugin, { attributeKey: GPU, algorithm });

  it('fixed range: clamp((v − min)/(max − min)), inverted when lower is better; no value → 0', () => {
    const r = requestWith(GPU, [0.25, 1.5, undefined, -1]);
    expect(scoresOf(scorer({ type: 'linear_lower_is_better', normalization: { fixedRange: { min: 0, max: 1 } } }), r, eps)).toEqual([0.75, 0, 0, 1]);
    expect(scoresOf(scorer({ type: 'linear_higher_is_better', normalization: { fixedRange: { min: 0, max: 2 } } }), r, eps)).toEqual([0.125, 0.75, 0, 0]);
  });

  it('adaptive range (the default): min-max over the candidates with a value, all equal → 1', () => {
    const r = requestWith(GPU, [10, 30, undefined, 20]);
    expect(scoresOf(scorer({ type: 'linear_lower_is_better' }), r, eps)).toEqual([1, 0, 0, 0.5]);
    expect(scoresOf(scorer({ type: 'linear_higher_is_better', normalization: { adaptiveRange: {} } }), r, eps)).toEqual([0, 1, 0, 0.5]);
    expect(scoresOf(scorer({ type: 'linear_higher_is_better' }), requestWith(GPU, [5, 5, undefined, 5]), eps)).toEqual([1, 1, 0, 1]);
  });

  it('rejects both ranges, min ≥ max and an unknown algorithm', () => {
    expect(() => scorer({ type: 'linear_lower_is_better', normalization: { fixedRange: { min: 0, max: 1 }, adaptiveRange: {} } })).toThrow(/at most one/);
    expect(() => scorer({ type: 'linear_lower_is_better', normalization: { fixedRange: { min: 1, max: 1 } } })).toThrow(/min must be below max/);
    expect(() => scorer({ type: 'log' })).toThrow(/type/);
  });

  it('loads from a config with a dcgm extractor and never fails without the attribute', () => {
    const pool = poolOf(2);
    const yaml = `
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: endpoint-attribute-filter
  parameters: { attribute: "${GPU}", algorithm: { type: threshold, threshold: { operator: LessThanOrEqual, value: 0.9 } } }
- type: endpoint-attribute-scorer
  parameters: { attributeKey: "${GPU}", algorithm: { type: linear_lower_is_better } }
`;
    const loaded = loadConfig(yaml, { registry: createDefaultRegistry(), pool });
    const profile = loaded.profiles.get('default');
    expect(profile?.filters.map((f) => f.type)).toEqual(['endpoint-attribute-filter']);
    expect(profile?.scorers.map((s) => s.scorer.type)).toEqual(['endpoint-attribute-scorer']);
    const f = profile!.filters[0]!;
    // No producer published the attribute: every endpoint passes (onMissing Pass) and scores 0.
    expect(f.filter(cycleContext(), schedulingRequest(), pool.list())).toHaveLength(2);
    expect(scoresOf(profile!.scorers[0]!.scorer, schedulingRequest(), pool.list())).toEqual([0, 0]);
  });
});
