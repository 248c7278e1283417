import { describe, expect, it } from 'vitest';
import {
  Attributes,
  alwaysDisaggMultimodalDeciderPlugin,
  alwaysDisaggPdDeciderPlugin,
  createPrefixBasedPdDecider,
  prefixBasedPdDeciderParameters,
  prefixBasedPdDeciderPlugin,
  prefixMatchAttribute,
  type StageDecider,
} from '@switchyard/core';
import { cycleContext, endpoints, instantiate, schedulingRequest } from '../../testing/index.js';

describe('prefix-based-pd-decider (§12 case 9, bs = 1, prompt of 10 tokens)', () => {
  const [decode] = endpoints(1);
  const decide = (cached: number | undefined, params: Record<string, number>): boolean => {
    const req = schedulingRequest();
    req.attributes.set(Attributes.promptTokenCount, 10);
    if (cached !== undefined) {
      req.attributes.set(Attributes.prefixMatch, new Map([['e0', { matchBlocks: cached, totalBlocks: 10, blockSizeTokens: 1, cachedBlocks: cached }]]));
    }
    return (instantiate(prefixBasedPdDeciderPlugin, params) as StageDecider).shouldRun(cycleContext(), req, decode!);
  };
  it.each([
    [8, 5, false],
    [5, 5, true],
    [2, 3, true],
    [10, 1, false],
  ])('cached %i with threshold %i → %s', (cached, threshold, expected) => {
    expect(decide(cached, { nonCachedTokens: threshold })).toBe(expected);
  });
  it('promptTokens 20 → false', () => {
    expect(decide(0, { nonCachedTokens: 1, promptTokens: 20 })).toBe(false);
  });
  it('is off with threshold 0 and without match info', () => {
    expect(decide(0, { nonCachedTokens: 0 })).toBe(false);
    expect(decide(undefined, { nonCachedTokens: 1 })).toBe(false);
  });
  it('reads the named producer\'s match info with prefixMatchInfoProducerName', () => {
    const req = schedulingRequest();
    req.attributes.set(Attributes.promptTokenCount, 10);
    // The shared attribute says "all cached", the precise producer's copy says "2 of 10 cached".
    req.attributes.set(Attributes.prefixMatch, new Map([['e0', { matchBlocks: 10, totalBlocks: 10, blockSizeTokens: 1, cachedBlocks: 10 }]]));
    req.attributes.set(prefixMatchAttribute('precise'), new Map([['e0', { matchBlocks: 2, totalBlocks: 10, blockSizeTokens: 1, cachedBlocks: 2 }]]));
    const shared = createPrefixBasedPdDecider('pd', { nonCachedTokens: 5 });
    const named = createPrefixBasedPdDecider('pd', { nonCachedTokens: 5, prefixMatchInfoProducerName: 'precise' });
    expect(shared.shouldRun(cycleContext(), req, decode!)).toBe(false);
    expect(named.shouldRun(cycleContext(), req, decode!)).toBe(true);
    expect(named.consumes).toEqual(['prefix-match-info/precise']);
    expect(createPrefixBasedPdDecider('pd', { prefixMatchInfoProducerName: '' }).consumes).toEqual([Attributes.prefixMatch.name]);
  });
  it('rejects unknown and negative parameters', () => {
    expect(prefixBasedPdDeciderParameters.safeParse({ nonCachedToken: 5 }).success).toBe(false);
    expect(() => createPrefixBasedPdDecider('pd', { nonCachedTokens: -1 })).toThrow();
  });
});

describe('always-disagg deciders', () => {
  const [decode] = endpoints(1);
  it('always-disagg-pd-decider always runs prefill', () => {
    expect((instantiate(alwaysDisaggPdDeciderPlugin) as StageDecider).shouldRun(cycleContext(), schedulingRequest(), decode!)).toBe(true);
  });
  it('always-disagg-multimodal-decider runs encode only for chat with media', () => {
    const d = instantiate(alwaysDisaggMultimodalDeciderPlugin) as StageDecider;
    const media = schedulingRequest({ request: { prompt: { kind: 'chat', toolsJson: undefined, messages: [{ role: 'user', content: 'look', media: ['image'] }] } } });
    expect(d.shouldRun(cycleContext(), media, decode!)).toBe(true);
    expect(d.shouldRun(cycleContext(), schedulingRequest(), decode!)).toBe(false);
  });
});
