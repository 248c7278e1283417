import { Attributes, createDefaultRegistry, loadConfig, prefixMatchAttribute, type Endpoint, type InFlightLoadView, type PrefixMatchInfo } from '@switchyard/core';
import { endpoints, instantiate, poolOf, schedulingRequest, scoresOf } from '@switchyard/core/testing';
import { describe, expect, it } from 'vitest';
import { lmetricCost, lmetricScorerDefinition, prefixIndexPack } from '../index.js';

const info = (matchBlocks: number, totalBlocks: number, blockSizeTokens = 16): PrefixMatchInfo => ({ matchBlocks, totalBlocks, blockSizeTokens, cachedBlocks: matchBlocks });
const eps = endpoints(4);

function request(matches: readonly (PrefixMatchInfo | undefined)[], inFlight: readonly number[], producer?: string) {
  const r = schedulingRequest();
  const map = new Map<string, PrefixMatchInfo>();
  matches.forEach((m, i) => {
    if (m !== undefined) map.set(eps[i]!.id, m);
  });
  r.attributes.set(prefixMatchAttribute(producer), map);
  const load: InFlightLoadView = { requests: (e: Endpoint) => inFlight[eps.findIndex((x) => x.id === e.id)] ?? 0, tokens: () => 0 };
  r.attributes.set(Attributes.inFlightLoad, load);
  return r;
}

describe('lmetric-scorer', () => {
  it('cost = uncached prefill tokens × (in-flight requests + 1)', () => {
    expect(lmetricCost(info(2, 10), 0)).toBe(8 * 16);
    expect(lmetricCost(info(2, 10), 3)).toBe(8 * 16 * 4);
    expect(lmetricCost(info(12, 10), 3)).toBe(0); // match clamped to the total
    expect(lmetricCost(info(-1, 10, 0), 0)).toBe(10); // negative match → 0, unknown block size → 1
    expect(lmetricCost(info(0, 0), 0)).toBeUndefined();
    expect(lmetricCost(undefined, 0)).toBeUndefined();
  });

  it('scores min-max of the cost, lower better; no match info → 0; equal costs → 1', () => {
    const scorer = instantiate(lmetricScorerDefinition);
    // costs: e0 = 8×16×1 = 128, e1 = 0×16×3 = 0, e2 = no info, e3 = 4×16×2 = 128
    const r = request([info(2, 10), info(10, 10), undefined, info(6, 10)], [0, 2, 0, 1]);
    expect(scoresOf(scorer, r, eps)).toEqual([0, 1, 0, 0]);
    const r2 = request([info(5, 10), info(0, 10), info(5, 10), info(0, 10)], [1, 0, 0, 0]);
    // costs 160, 160, 80, 160 → (160 − c)/80
    expect(scoresOf(scorer, r2, eps)).toEqual([0, 0, 1, 0]);
    expect(scoresOf(scorer, request([info(1, 2), info(1, 2), undefined, undefined], [0, 0]), eps)).toEqual([1, 1, 0, 0]);
  });

  it("reads the named producer's match info, and loads llm-d's config with both producers", () => {
    const scorer = instantiate(lmetricScorerDefinition, { prefixMatchInfoProducerName: 'precise-prefix-cache-producer' });
    const r = request([info(0, 4), info(4, 4), undefined, undefined], [0, 0], 'precise-prefix-cache-producer');
    expect(scoresOf(scorer, r, eps)).toEqual([0, 1, 0, 0]);
    const registry = createDefaultRegistry().registerPack(prefixIndexPack());
    const loaded = loadConfig('apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\nplugins:\n- type: lmetric-scorer\n  parameters: { inFlightLoadProducerName: inflight-load-producer }\n', { registry, pool: poolOf(2) });
    try {
      expect(loaded.producers.map((p) => p.type).sort()).toEqual(['approx-prefix-cache-producer', 'inflight-load-producer', 'token-producer']);
      expect(loaded.notActedOn.map((n) => n.parameter)).toEqual(['inFlightLoadProducerName']);
    } finally {
      for (const p of loaded.plugins.values()) void p.close?.();
    }
  });
});
