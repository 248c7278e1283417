import { describe, expect, it } from 'vitest';
import { Attributes, EndpointPool, createDefaultRegistry, loadConfig, sloHeadroomTierFilterPlugin, type Filter, type LatencyPrediction } from '@switchyard/core';
import { cycleContext, endpoints, instantiate, schedulingRequest } from '../../testing/index.js';

const eps = endpoints(4);
const request = (preds: Record<string, LatencyPrediction> | undefined, slo: { sloTtftMs?: number; sloTpotMs?: number } = { sloTtftMs: 100, sloTpotMs: 20 }) => {
  const req = schedulingRequest(slo);
  if (preds !== undefined) req.attributes.set(Attributes.predictedLatency, new Map(Object.entries(preds)));
  return req;
};
const ids = (f: Filter, req: ReturnType<typeof request>, random = 0.5) => f.filter(cycleContext({ random: () => random }), req, eps).map((e) => e.id);

describe('slo-headroom-tier-filter', () => {
  const filter = instantiate(sloHeadroomTierFilterPlugin) as Filter;
  // e0 meets both SLOs, e1 misses TTFT, e2 misses TPOT, e3 has no prediction.
  const mixed = { e0: { ttftMs: 50, tpotMs: 10 }, e1: { ttftMs: 150, tpotMs: 10 }, e2: { ttftMs: 50, tpotMs: 30 } };

  it('keeps the endpoints predicted to meet both SLOs', () => {
    expect(ids(filter, request(mixed))).toEqual(['e0']);
  });

  it('keeps the negative tier (unpredicted endpoints included) with probability epsilonExploreNeg', () => {
    expect(ids(filter, request(mixed), 0.005)).toEqual(['e1', 'e2', 'e3']);
    const always = instantiate(sloHeadroomTierFilterPlugin, { epsilonExploreNeg: 1 }) as Filter;
    expect(ids(always, request(mixed), 0.999)).toEqual(['e1', 'e2', 'e3']);
  });

  it('keeps a lone tier, and everything without predictions', () => {
    expect(ids(filter, request({ e0: { ttftMs: 500, tpotMs: 50 } }))).toEqual(['e0', 'e1', 'e2', 'e3']);
    expect(ids(filter, request(undefined))).toEqual(['e0', 'e1', 'e2', 'e3']);
    expect(ids(filter, request({}))).toEqual(['e0', 'e1', 'e2', 'e3']);
  });

  it('counts a dimension without an SLO as met', () => {
    expect(ids(filter, request(mixed, { sloTtftMs: 100 }))).toEqual(['e0', 'e2']);
    expect(ids(filter, request(mixed, {}))).toEqual(['e0', 'e1', 'e2']);
  });

  it('loads from a config with its predicted-latency producer created automatically', () => {
    const yaml = 'apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\nplugins:\n- type: slo-headroom-tier-filter\n  parameters: { epsilonExploreNeg: 0.05 }\n- type: queue-scorer\n';
    const config = loadConfig(yaml, { registry: createDefaultRegistry(), pool: new EndpointPool() });
    expect(config.producers.map((p) => p.type)).toContain('predicted-latency-producer');
    expect(config.profiles.get('default')?.filters.map((f) => f.type)).toEqual(['slo-headroom-tier-filter']);
    expect(() => sloHeadroomTierFilterPlugin.parameters.parse({ epsilonExploreNeg: 2 })).toThrow();
  });
});
