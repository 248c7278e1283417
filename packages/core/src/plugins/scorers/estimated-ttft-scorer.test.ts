import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  Attributes,
  EndpointPicker,
  createDefaultRegistry,
  createEstimatedTtftScorer,
  estimateTtftMs,
  estimatedTtftScorerParameters,
  loadConfig,
  parseRequest,
  type Endpoint,
  type PrefixMatchInfo,
  type SchedulingResult,
  type TtftModel,
} from '@switchyard/core';
import { ManualClock } from '../../clock/manual-clock.js';
import { stepResidualMs } from './ttft-estimate.js';
import { cycleContext, endpoints, poolOf, schedulingRequest } from '../../testing/index.js';

const PARAMS = estimatedTtftScorerParameters.parse({});
const MODEL: TtftModel = PARAMS;
const tokensRequest = (n: number) => schedulingRequest({ request: { prompt: { kind: 'tokens', tokenIds: [Array.from({ length: n }, (_, i) => i)] } } });
const match = (cachedBlocks: number): PrefixMatchInfo => ({ matchBlocks: cachedBlocks, totalBlocks: 100, blockSizeTokens: 64, cachedBlocks });
const scores = (s: ReturnType<typeof createEstimatedTtftScorer>, req: ReturnType<typeof tokensRequest>, eps: readonly Endpoint[]): number[] => {
  const out = new Float64Array(eps.length);
  s.scoreInto?.(cycleContext(), req, eps, out);
  const viaMap = s.score(cycleContext(), req, eps);
  expect(eps.map((e) => viaMap.get(e.id))).toEqual(Array.from(out));
  return Array.from(out);
};
const resultFor = (e: Endpoint): SchedulingResult => ({ primaryProfileName: 'default', profileResults: new Map([['default', { targets: [e], scored: [] }]]) });

describe('estimateTtftMs', () => {
  it('charges uncached prefill at msPerToken plus one step on an idle pod', () => {
    const est = estimateTtftMs(MODEL, { uncachedTokens: 1000, queuedTokens: 0, running: 0, kvUsage: 0, kvTokens: 0 });
    expect(est).toBeCloseTo(1000 * MODEL.msPerToken + MODEL.stepBaseMs, 9);
  });
  it('grows with queued tokens, running sequences, KV tokens and KV pressure (property)', () => {
    const x = fc.record({ uncachedTokens: fc.nat(200_000), queuedTokens: fc.nat(200_000), running: fc.nat(2048), kvUsage: fc.double({ min: 0, max: 1, noNaN: true }), kvTokens: fc.nat(1_000_000) });
    fc.assert(
      fc.property(x, fc.constantFrom('uncachedTokens', 'queuedTokens', 'running', 'kvTokens'), fc.nat(10_000), (inputs, field, more) => {
        const base = estimateTtftMs(MODEL, inputs);
        expect(base).toBeGreaterThan(0);
        expect(estimateTtftMs(MODEL, { ...inputs, [field]: inputs[field] + more })).toBeGreaterThanOrEqual(base);
        expect(estimateTtftMs(MODEL, { ...inputs, kvUsage: Math.min(1, inputs.kvUsage + 0.05) })).toBeGreaterThanOrEqual(base);
      }),
    );
  });
  it('adds kvPressureMs in full at 100% KV usage and nothing below the threshold', () => {
    const at = (kvUsage: number): number => estimateTtftMs(MODEL, { uncachedTokens: 10, queuedTokens: 0, running: 0, kvUsage, kvTokens: 0 });
    expect(at(0.9)).toBe(at(0));
    expect(at(1) - at(0)).toBeCloseTo(MODEL.kvPressureMs, 9);
  });
});

describe('estimated-ttft-scorer', () => {
  it('prefers the pod holding the prefix when loads are equal', () => {
    const eps = endpoints(3, () => ({ runningRequestsSize: 10 }));
    const req = tokensRequest(6400);
    req.attributes.set(Attributes.prefixMatch, new Map([['e1', match(90)]]));
    const s = scores(createEstimatedTtftScorer('t'), req, eps);
    expect(s[1]).toBe(1);
    expect(s[0]).toBeLessThan(1);
    expect(s[0]).toBe(s[2]);
  });
  it('yields the warm pod once its queue costs more than the cache saves', () => {
    const req = tokensRequest(6400);
    req.attributes.set(Attributes.prefixMatch, new Map([['e1', match(90)]]));
    // e1 holds 5,760 of 6,400 tokens but has 10 long prompts waiting; e0 is idle and cold.
    const eps = endpoints(2, (i) => (i === 1 ? { waitingQueueSize: 10 } : {}));
    const s = scores(createEstimatedTtftScorer('t'), req, eps);
    expect(s[0]).toBe(1);
    expect(s[1]).toBeLessThan(1);
  });
  it('counts its own pending prefill at once, so a burst of cold requests spreads', () => {
    const pool = poolOf(4, () => ({}));
    const eps = pool.list();
    const scorer = createEstimatedTtftScorer('t');
    const chosen: string[] = [];
    for (let k = 0; k < 4; k++) {
      const req = tokensRequest(4000);
      const s = scores(scorer, req, eps);
      const best = eps.filter((_, i) => s[i] === 1);
      const pick = best[0] as Endpoint;
      chosen.push(pick.id);
      scorer.preRequest?.(cycleContext(), req, resultFor(pick), {});
    }
    expect(new Set(chosen).size).toBe(4);
  });
  it('forgets pending prefill at the first byte and on completion, exactly once', () => {
    const eps = endpoints(2, () => ({}));
    const scorer = createEstimatedTtftScorer('t');
    const a = tokensRequest(4000);
    const b = tokensRequest(4000);
    scorer.preRequest?.(cycleContext(), a, resultFor(eps[0] as Endpoint), {});
    scorer.preRequest?.(cycleContext(), b, resultFor(eps[0] as Endpoint), {});
    const queued = (): number => scorer.estimate(tokensRequest(1), eps, 0)[0]?.queuedTokens ?? -1;
    expect(queued()).toBe(8000);
    scorer.onResponseStart?.(a, { endpoint: eps[0] as Endpoint, status: 200, at: 1 });
    scorer.onComplete?.(a, { kind: 'success' }, eps[0]);
    expect(queued()).toBe(4000);
    scorer.onComplete?.(b, { kind: 'cancelled' }, undefined);
    expect(queued()).toBe(0);
  });
  it('rounds near-equal estimates to one value so the picker breaks the tie at random', () => {
    const eps = endpoints(2, (i) => ({ kvCacheUsagePercent: i === 0 ? 0.1 : 0.1001 }));
    expect(scores(createEstimatedTtftScorer('t'), tokensRequest(100), eps)).toEqual([1, 1]);
    expect(scores(createEstimatedTtftScorer('t', { tieResolutionMs: 0 }), tokensRequest(100), eps)[1]).toBeLessThan(1);
  });
  it('scores exactly what its trace details say (property)', () => {
    const pod = fc.record({ waitingQueueSize: fc.nat(20), runningRequestsSize: fc.nat(1100), kvCacheUsagePercent: fc.double({ min: 0, max: 1, noNaN: true }) });
    fc.assert(
      fc.property(fc.array(pod, { minLength: 1, maxLength: 12 }), fc.nat(20_000), fc.nat(40), (pods, prompt, cachedBlocks) => {
        const eps = endpoints(pods.length, (i) => pods[i]);
        const req = tokensRequest(prompt);
        req.attributes.set(Attributes.prefixMatch, new Map([['e0', match(cachedBlocks)]]));
        const scorer = createEstimatedTtftScorer('t');
        const got = scores(scorer, req, eps);
        const est = scorer.estimate(req, eps, 0).map((d) => d.estimateMs);
        const c = PARAMS.stepBaseMs + PARAMS.tieResolutionMs;
        const best = Math.min(...est);
        got.forEach((g, i) => {
          expect(g).toBeCloseTo((best + c) / ((est[i] as number) + c), 12);
        });
      }),
    );
  });
  it('names the bad field of an invalid parameter', () => {
    const registry = createDefaultRegistry();
    const doc = (parameters: object): string => JSON.stringify({ apiVersion: 'llm-d.ai/v1', kind: 'EndpointPickerConfig', plugins: [{ type: 'estimated-ttft-scorer', parameters }], schedulingProfiles: [{ name: 'default', plugins: [{ pluginRef: 'estimated-ttft-scorer' }] }] });
    expect(() => loadConfig(doc({ msPerToken: -1 }), { registry, pool: poolOf(1) })).toThrow(/msPerToken/);
    expect(() => loadConfig(doc({ kvPressureThreshold: 1 }), { registry, pool: poolOf(1) })).toThrow(/kvPressureThreshold/);
    expect(() => loadConfig(doc({ stepTokenBudget: 0.5 }), { registry, pool: poolOf(1) })).toThrow(/stepTokenBudget/);
    expect(() => loadConfig(doc({ msPerTokn: 1 }), { registry, pool: poolOf(1) })).toThrow(/msPerTokn/);
  });
  it('shows the estimate and its inputs per pod in the decision trace', async () => {
    const pool = poolOf(2, (i) => ({ runningRequestsSize: i === 0 ? 500 : 2 }));
    const config = loadConfig(JSON.stringify({ apiVersion: 'llm-d.ai/v1', kind: 'EndpointPickerConfig', plugins: [{ type: 'estimated-ttft-scorer' }], schedulingProfiles: [{ name: 'default', plugins: [{ pluginRef: 'estimated-ttft-scorer' }] }] }), { registry: createDefaultRegistry(), pool });
    const picker = new EndpointPicker({ pool, config, clock: new ManualClock() });
    const decision = await picker.pick(parseRequest({ path: '/v1/completions', headers: {}, body: JSON.stringify({ model: 'm', prompt: 'x'.repeat(4000) }) }), { trace: true });
    const entry = decision.trace?.profiles[0]?.scorers[0];
    const details = entry?.details as Record<string, { estimateMs: number; running: number; uncachedTokens: number }> | undefined;
    expect(details?.['e0']?.running).toBe(500);
    expect(details?.['e1']?.uncachedTokens).toBe(1000);
    expect((details?.['e0']?.estimateMs ?? 0) > (details?.['e1']?.estimateMs ?? 0)).toBe(true);
    expect(decision.primary.id).toBe('e1');
    decision.complete({ kind: 'success' });
  });
});

describe('step phase (the rest of the running engine step)', () => {
  it('is 0 on an idle pod, the rest of the step after a seen boundary, half a step when unknown', () => {
    expect(stepResidualMs(100, 10, false)).toBe(0);
    expect(stepResidualMs(100, 10, true)).toBe(90);
    expect(stepResidualMs(100, 99, true)).toBe(1);
    expect(stepResidualMs(100, Infinity, true)).toBe(50);
    expect(stepResidualMs(100, 150, true)).toBe(50);
  });
  it('never exceeds one step and never goes negative (property)', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 10_000, noNaN: true }), fc.double({ min: 0, max: 1e6, noNaN: true }), (stepMs, since) => {
        const r = stepResidualMs(stepMs, since, true);
        expect(r).toBeGreaterThanOrEqual(0);
        expect(r).toBeLessThanOrEqual(stepMs);
      }),
    );
  });
  it('prefers the busy pod whose step is nearly over to one whose step has just begun', () => {
    const clock = new ManualClock(10_000);
    const eps = endpoints(2, () => ({ runningRequestsSize: 500, kvCacheUsagePercent: 0.5, cacheNumBlocks: 26_400, cacheBlockSize: 16 }));
    const [e0, e1] = eps as [Endpoint, Endpoint];
    const stepMs = MODEL.stepBaseMs + 500 * MODEL.msPerToken + 0.5 * 26_400 * 16 * MODEL.msPerKvToken;
    const started = (scorer: ReturnType<typeof createEstimatedTtftScorer>, e: Endpoint, at: number): void => {
      const r = tokensRequest(10);
      scorer.preRequest?.(cycleContext({ clock }), r, resultFor(e), {});
      scorer.onResponseStart?.(r, { endpoint: e, status: 200, at });
    };
    const scorer = createEstimatedTtftScorer('t', { stepPhase: true });
    started(scorer, e0, clock.now() - 1); // e0's step has just begun
    started(scorer, e1, clock.now() - stepMs + 5); // e1's step ends in 5 ms
    const out = new Float64Array(2);
    scorer.scoreInto?.(cycleContext({ clock }), tokensRequest(100), eps, out);
    expect(out[1]).toBe(1);
    expect(out[0]).toBeLessThan(out[1] as number);
    const off = createEstimatedTtftScorer('off');
    started(off, e0, clock.now() - 1);
    started(off, e1, clock.now() - stepMs + 5);
    off.scoreInto?.(cycleContext({ clock }), tokensRequest(100), eps, out);
    expect(out[0]).toBe(out[1]);
  });
});

describe('near-tie spreading (spreadMarginMs, spreadSteps)', () => {
  const pickTop = (s: ReturnType<typeof createEstimatedTtftScorer>, eps: readonly Endpoint[], req = tokensRequest(100)): Endpoint => {
    const out = scores(s, req, eps);
    const top = eps.filter((_, i) => out[i] === 1);
    expect(top).toHaveLength(1);
    const e = top[0] as Endpoint;
    s.preRequest?.(cycleContext(), req, resultFor(e), {});
    // The first byte clears the pending prefill, so only the recency of picks separates the pods.
    s.onResponseStart?.(req, { endpoint: e, status: 200, at: 0 });
    return e;
  };
  it('cycles through pods whose estimates are within the margin, like round-robin', () => {
    const eps = endpoints(4, (i) => ({ runningRequestsSize: 100 + i }));
    const s = createEstimatedTtftScorer('t', { spreadMarginMs: 5, tieResolutionMs: 0 });
    const picked = Array.from({ length: 8 }, () => pickTop(s, eps).id);
    expect(picked.slice(0, 4).sort()).toEqual(['e0', 'e1', 'e2', 'e3']);
    expect(picked.slice(4)).toEqual(picked.slice(0, 4));
  });
  it('never spreads to a pod slower than the margin', () => {
    // e1 holds 5,760 of the 6,400 prompt tokens: 144 ms less prefill than anywhere else.
    const eps = endpoints(3, () => ({ runningRequestsSize: 10 }));
    const s = createEstimatedTtftScorer('t', { spreadMarginMs: 20 });
    for (let k = 0; k < 4; k++) {
      const req = tokensRequest(6400);
      req.attributes.set(Attributes.prefixMatch, new Map([['e1', match(90)]]));
      expect(pickTop(s, eps, req).id).toBe('e1');
    }
  });
  it('counts the margin in steps of the fastest pod with spreadSteps', () => {
    // Steps of ≈ 7 + 400·0.025 = 17 ms; e1 is 2.5 ms slower (100 more running sequences).
    const eps = endpoints(2, (i) => ({ runningRequestsSize: 400 + 100 * i }));
    const within = createEstimatedTtftScorer('t', { spreadSteps: 1, tieResolutionMs: 0 });
    expect(new Set([pickTop(within, eps).id, pickTop(within, eps).id])).toEqual(new Set(['e0', 'e1']));
    const narrow = createEstimatedTtftScorer('t', { spreadSteps: 0.1, tieResolutionMs: 0 });
    expect([pickTop(narrow, eps).id, pickTop(narrow, eps).id]).toEqual(['e0', 'e0']);
  });
  it('keeps every other score below the chosen one and the order of the rest (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(1000), { minLength: 1, maxLength: 12 }), fc.double({ min: 0.1, max: 100, noNaN: true }), (running, margin) => {
        const eps = endpoints(running.length, (i) => ({ runningRequestsSize: running[i] ?? 0 }));
        const plain = scores(createEstimatedTtftScorer('p', { tieResolutionMs: 0 }), tokensRequest(100), eps);
        const spread = scores(createEstimatedTtftScorer('s', { tieResolutionMs: 0, spreadMarginMs: margin }), tokensRequest(100), eps);
        expect(spread.filter((x) => x === 1)).toHaveLength(1);
        spread.forEach((x, i) => {
          if (x !== 1) expect(x).toBe(Math.min(plain[i] as number, 1 - 1e-9));
        });
      }),
    );
  });
});

describe('LoRA adapter loading (loraLoadMs)', () => {
  const loraRequest = (model: string) => schedulingRequest({ targetModel: model, request: { prompt: { kind: 'tokens', tokenIds: [[1, 2, 3]] } } });
  it('adds nothing where the adapter is active, half while it loads, all with a free slot, twice when slots are full', () => {
    const eps = endpoints(4, (i) => [
      { activeModels: ['a'], maxActiveModels: 2 },
      { activeModels: ['b'], waitingModels: ['a'], maxActiveModels: 2 },
      { activeModels: ['b'], maxActiveModels: 2 },
      { activeModels: ['b', 'c'], maxActiveModels: 2 },
    ][i]);
    const s = createEstimatedTtftScorer('t', { loraLoadMs: 200, tieResolutionMs: 0 });
    const est = s.estimate(loraRequest('a'), eps, 0).map((d) => d.estimateMs);
    const base = est[0] as number;
    expect(est.map((x) => Math.round(x - base))).toEqual([0, 100, 200, 400]);
    expect(scores(s, loraRequest('a'), eps)[0]).toBe(1);
  });
  it('charges nothing on pods without adapter slots and is off by default', () => {
    const eps = endpoints(2, (i) => (i === 0 ? { activeModels: [], maxActiveModels: 0 } : { activeModels: ['a'], maxActiveModels: 2 }));
    expect(new Set(createEstimatedTtftScorer('t', { loraLoadMs: 200 }).estimate(loraRequest('a'), eps, 0).map((d) => d.estimateMs)).size).toBe(1);
    const off = endpoints(2, (i) => ({ activeModels: i === 0 ? ['a'] : [], maxActiveModels: 2 }));
    expect(new Set(createEstimatedTtftScorer('t').estimate(loraRequest('a'), off, 0).map((d) => d.estimateMs)).size).toBe(1);
  });
});
