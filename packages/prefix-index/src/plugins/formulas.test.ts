import { describe, expect, it } from 'vitest';
import { Attributes, createPrefixBasedPdDecider, type Endpoint, type PrefixMatchInfo } from '@switchyard/core';
import { createAffinityFilter, createPrefixCacheScorer, matchInfoAttribute, NoHitLruScorer, prefixCacheScore } from '@switchyard/prefix-index';
import { cycleContext, poolOf, resultOf, schedulingRequest, tokensPrompt } from '@switchyard/core/testing';

const info = (matchBlocks: number, totalBlocks: number, blockSizeTokens = 1): PrefixMatchInfo => ({ matchBlocks, totalBlocks, blockSizeTokens, cachedBlocks: matchBlocks });

function withMatches(matches: Record<string, PrefixMatchInfo>) {
  const req = schedulingRequest({ request: { prompt: tokensPrompt(Array.from({ length: 10 }, (_, i) => i)) } });
  req.attributes.set(Attributes.prefixMatch, new Map(Object.entries(matches)));
  return req;
}

describe('prefix-cache-scorer (llm-d case 4)', () => {
  it('computes w·min(1, m·bs/S)² + (1−w)·m/total', () => {
    expect(prefixCacheScore(info(5, 10), 0.5, 100)).toBeCloseTo(0.25125, 10);
    expect(prefixCacheScore(info(50, 100), 0.5, 100)).toBeCloseTo(0.375, 10);
    expect(prefixCacheScore(info(5, 10), 0, 100)).toBeCloseTo(0.5, 10);
    expect(prefixCacheScore(info(0, 0), 0.5, 100)).toBe(0);
    expect(prefixCacheScore(undefined, 0.5, 100)).toBe(0);
  });

  it('scores candidates from the shared or a named producer attribute', () => {
    const eps = poolOf(['a', 'b', 'c']).list();
    const req = withMatches({ a: info(5, 10), b: info(10, 10) });
    const scorer = createPrefixCacheScorer('s', 0.5, 100);
    expect(Object.fromEntries(scorer.score(cycleContext(), req, eps))).toEqual({ a: expect.closeTo(0.25125, 8) as number, b: expect.closeTo(0.505, 8) as number, c: 0 });
    req.attributes.set(matchInfoAttribute('precise'), new Map([['c', info(10, 10)]]));
    const named = createPrefixCacheScorer('s2', 0, 100, 'precise');
    expect(named.consumes).toEqual(['prefix-match-info/precise']);
    expect(Object.fromEntries(named.score(cycleContext(), req, eps))).toEqual({ a: 0, b: 0, c: 1 });
  });
});

describe('no-hit-lru-scorer (llm-d case 5)', () => {
  it('ranks cold requests by recency and gives all 0.5 when anyone is warm', () => {
    const eps = poolOf(['a', 'b', 'c']).list();
    const s = new NoHitLruScorer('lru');
    const cold = withMatches({ a: info(0, 10), b: info(0, 10), c: info(0, 10) });
    expect(Object.fromEntries(s.score(cycleContext(), cold, eps))).toEqual({ a: 1, b: 0.5, c: 0 });
    s.preRequest(cycleContext(), cold, resultOf(eps[0]!));
    const next = withMatches({});
    expect(Object.fromEntries(s.score(cycleContext(), next, eps))).toEqual({ b: 1, c: 0.5, a: 0 });
    const warm = withMatches({ c: info(3, 10) });
    expect(Object.fromEntries(s.score(cycleContext(), warm, eps))).toEqual({ a: 0.5, b: 0.5, c: 0.5 });
    s.preRequest(cycleContext(), warm, resultOf(eps[1]!));
    expect(s.recent()).toEqual(['a']);
    expect(Object.fromEntries(s.score(cycleContext(), next, [eps[2]!]))).toEqual({ c: 1 });
  });

  it('moves the prefill target too and keeps at most lruSize endpoints', () => {
    const eps = poolOf(['a', 'b', 'c']).list();
    const s = new NoHitLruScorer('lru', 2);
    const cold = withMatches({});
    s.score(cycleContext(), cold, eps);
    s.preRequest(cycleContext(), cold, resultOf(eps[0]!, { prefill: eps[1] }));
    s.preRequest(cycleContext(), cold, resultOf(eps[2]!));
    expect(s.recent()).toEqual(['b', 'c']);
  });
});

describe('prefix-based-pd-decider (llm-d case 9)', () => {
  const decode = poolOf(['d']).list()[0]!;
  const decide = (cached: number, nonCachedTokens: number, promptTokens = 0) => {
    const req = withMatches({ d: info(cached, 10) });
    req.attributes.set(Attributes.promptTokenCount, 10);
    return createPrefixBasedPdDecider('pd', { nonCachedTokens, promptTokens }).shouldRun(cycleContext(), req, decode);
  };
  it('disaggregates only when enough of the prompt is uncached on the decode endpoint', () => {
    expect(decide(8, 5)).toBe(false);
    expect(decide(5, 5)).toBe(true);
    expect(decide(2, 3)).toBe(true);
    expect(decide(10, 1)).toBe(false);
    expect(decide(2, 3, 20)).toBe(false);
    expect(decide(0, 0)).toBe(false);
    expect(decide(0, 11)).toBe(false);
  });
  it('needs match info for the decode endpoint', () => {
    const req = withMatches({});
    req.attributes.set(Attributes.promptTokenCount, 10);
    expect(createPrefixBasedPdDecider('pd', { nonCachedTokens: 1 }).shouldRun(cycleContext(), req, decode)).toBe(false);
  });
});

describe('prefix-cache-affinity-filter', () => {
  const pool = poolOf(['a', 'b', 'c']);
  const eps = pool.list();
  const ids = (list: readonly Endpoint[]) => list.map((e) => e.id);

  it('keeps the sticky endpoints (m/total ≥ threshold)', () => {
    const f = createAffinityFilter('f');
    const req = withMatches({ a: info(9, 10), b: info(8, 10), c: info(7, 10) });
    expect(ids(f.filter(cycleContext(), req, eps))).toEqual(['a', 'b']);
  });

  it('keeps everyone with one endpoint, nothing sticky, or while exploring', () => {
    const f = createAffinityFilter('f', { explorationProbability: 0.3 });
    const req = withMatches({ a: info(9, 10) });
    expect(ids(f.filter(cycleContext({ random: () => 0.29 }), req, eps))).toEqual(['a', 'b', 'c']);
    expect(ids(f.filter(cycleContext({ random: () => 0.3 }), req, eps))).toEqual(['a']);
    expect(ids(f.filter(cycleContext(), withMatches({ a: info(1, 10) }), eps))).toEqual(['a', 'b', 'c']);
    expect(ids(f.filter(cycleContext(), req, [eps[1]!]))).toEqual(['b']);
  });

  it('gives up stickiness when the sticky endpoint is too loaded (TTFT gate)', () => {
    const gatePool = poolOf(['a', 'b']);
    const [a, b] = gatePool.list() as [Endpoint, Endpoint];
    const f = createAffinityFilter('f', { maxTTFTPenaltyMs: 1000, peakPrefillThroughput: 10_000 });
    const req = withMatches({ a: info(10, 10) });
    gatePool.addInFlight('a', 1, 10_000); // 1000 ms of prefill queued
    expect(ids(f.filter(cycleContext(), req, [a, b]))).toEqual(['a']);
    gatePool.addInFlight('a', 1, 1); // just over the 1000 ms penalty
    expect(ids(f.filter(cycleContext(), req, [a, b]))).toEqual(['a', 'b']);
    const predicted = withMatches({ a: info(10, 10) });
    predicted.attributes.set(Attributes.predictedLatency, new Map([['a', { ttftMs: 10, tpotMs: 1 }], ['b', { ttftMs: 5, tpotMs: 1 }]]));
    expect(ids(createAffinityFilter('p', { ttftSource: 'predictedLatency', maxTTFTPenaltyMs: 1000 }).filter(cycleContext(), predicted, [a, b]))).toEqual(['a']);
  });

  it('with maxTTFTPenaltyMs 0 turns the load gate off, as llm-d does (and then needs no throughput)', () => {
    const gatePool = poolOf(['a', 'b']);
    const [a, b] = gatePool.list() as [Endpoint, Endpoint];
    const f = createAffinityFilter('f', { maxTTFTPenaltyMs: 0, peakPrefillThroughput: 0 });
    gatePool.addInFlight('a', 100, 10_000_000); // far more loaded than b
    expect(ids(f.filter(cycleContext(), withMatches({ a: info(10, 10) }), [a, b]))).toEqual(['a']);
    expect(() => createAffinityFilter('g', { maxTTFTPenaltyMs: 1000, peakPrefillThroughput: 0 })).toThrow(/peakPrefillThroughput/);
  });
});
