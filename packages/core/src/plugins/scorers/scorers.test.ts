import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  Attributes,
  activeRequestScorerPlugin,
  kvCacheUtilizationScorerPlugin,
  loadAwareScorerPlugin,
  loraAffinityScorerPlugin,
  queueScorerPlugin,
  runningRequestsSizeScorerPlugin,
  tokenLoadScorerPlugin,
  type Endpoint,
  type Scorer,
} from '@switchyard/core';
import { cycleContext, endpoints, instantiate, schedulingRequest, scoresOf } from '../../testing/index.js';

const scorer = (def: Parameters<typeof instantiate>[0], params: unknown = {}): Scorer => instantiate(def, params) as Scorer;

/** Both scoring paths must agree; returns the map path's scores. */
function both(s: Scorer, eps: readonly Endpoint[], req = schedulingRequest()): number[] {
  const viaMap = scoresOf(s, req, eps);
  const out = new Float64Array(eps.length).fill(Number.NaN);
  s.scoreInto?.(cycleContext(), req, eps, out);
  expect(Array.from(out)).toEqual(viaMap);
  return viaMap;
}

describe('queue-scorer (§12 case 1)', () => {
  it('min-max normalises the waiting queue: [10,5,0] → [0,.5,1]', () => {
    const q = [10, 5, 0];
    expect(both(scorer(queueScorerPlugin), endpoints(3, (i) => ({ waitingQueueSize: q[i] ?? 0 })))).toEqual([0, 0.5, 1]);
  });
  it('gives 1 to everyone when all queues are equal: [5,5] → [1,1]', () => {
    expect(both(scorer(queueScorerPlugin), endpoints(2, () => ({ waitingQueueSize: 5 })))).toEqual([1, 1]);
  });
  it('treats endpoints without metrics as empty queues', () => {
    expect(both(scorer(queueScorerPlugin), endpoints(2, (i) => (i === 0 ? { waitingQueueSize: 4 } : undefined)))).toEqual([0, 1]);
  });
  it('always yields scores in [0,1] with 1 for the shortest queue', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(1000), { minLength: 1, maxLength: 20 }), (qs) => {
        const s = both(scorer(queueScorerPlugin), endpoints(qs.length, (i) => ({ waitingQueueSize: qs[i] ?? 0 })));
        expect(s.every((x) => x >= 0 && x <= 1)).toBe(true);
        expect(s[qs.indexOf(Math.min(...qs))]).toBe(1);
      }),
    );
  });
});

describe('running-requests-size-scorer', () => {
  it('uses the same formula on running requests', () => {
    const r = [4, 2, 0];
    expect(both(scorer(runningRequestsSizeScorerPlugin), endpoints(3, (i) => ({ runningRequestsSize: r[i] ?? 0 })))).toEqual([0, 0.5, 1]);
  });
});

describe('kv-cache-utilization-scorer', () => {
  it('scores 1 − usage', () => {
    const kv = [0.25, 1, 0];
    expect(both(scorer(kvCacheUtilizationScorerPlugin), endpoints(3, (i) => ({ kvCacheUsagePercent: kv[i] ?? 0 })))).toEqual([0.75, 0, 1]);
  });
});

describe('load-aware-scorer', () => {
  it('gives 0.5 to empty queues and 0.5(1 − q/T) otherwise', () => {
    const q = [0, 64, 128, 500];
    expect(both(scorer(loadAwareScorerPlugin), endpoints(4, (i) => ({ waitingQueueSize: q[i] ?? 0 })))).toEqual([0.5, 0.25, 0, 0]);
  });
  it('rejects a non-positive threshold', () => {
    expect(() => loadAwareScorerPlugin.parameters.parse({ threshold: 0 })).toThrow();
  });
});

describe('token-load-scorer (§12 case 2)', () => {
  const withLoad = (tokens: readonly number[], promptTokens?: number) => {
    const req = schedulingRequest();
    req.attributes.set(Attributes.inFlightLoad, { requests: () => 0, tokens: (e) => tokens[Number(e.id.slice(1))] ?? 0 });
    if (promptTokens !== undefined) req.attributes.set(Attributes.promptTokenCount, promptTokens);
    return req;
  };
  const s = scorer(tokenLoadScorerPlugin, { queueThresholdTokens: 1000 });
  it('in-flight [0,500,1000] → [1,.5,0]', () => {
    expect(both(s, endpoints(3), withLoad([0, 500, 1000]))).toEqual([1, 0.5, 0]);
  });
  it('[0,250,750] plus 250 uncached tokens each → [.75,.5,0]', () => {
    expect(both(s, endpoints(3), withLoad([0, 250, 750], 250))).toEqual([0.75, 0.5, 0]);
  });
  it('subtracts the tokens an endpoint has cached', () => {
    const req = withLoad([0, 0], 500);
    req.attributes.set(
      Attributes.prefixMatch,
      new Map([['e0', { matchBlocks: 25, totalBlocks: 31, blockSizeTokens: 16, cachedBlocks: 25 }]]),
    );
    expect(both(s, endpoints(2), req)).toEqual([0.9, 0.5]);
  });
  it('scores 1 without the in-flight attribute', () => {
    expect(both(s, endpoints(3))).toEqual([1, 1, 1]);
  });
  it('declares that it consumes the in-flight attribute', () => {
    expect(tokenLoadScorerPlugin.consumes).toEqual(['inflight-load']);
  });
});

describe('active-request-scorer', () => {
  it('scores idle endpoints 1 and others relative to the busiest', () => {
    const n = [0, 2, 4];
    const req = schedulingRequest();
    req.attributes.set(Attributes.inFlightLoad, { requests: (e) => n[Number(e.id.slice(1))] ?? 0, tokens: () => 0 });
    expect(both(scorer(activeRequestScorerPlugin), endpoints(3), req)).toEqual([1, 0.5, 0]);
    expect(both(scorer(activeRequestScorerPlugin, { idleThreshold: 2, maxBusyScore: 0.5 }), endpoints(3), req)).toEqual([1, 1, 0]);
  });
});

describe('lora-affinity-scorer (§12 case 3)', () => {
  const s = scorer(loraAffinityScorerPlugin);
  const req = schedulingRequest({ targetModel: 'm1' });
  it('active m1 → 1; free slot → .8; queued without slot → .6; full without m1 → 0', () => {
    const eps = endpoints(4, (i) =>
      [
        { activeModels: ['m1'], waitingModels: [], maxActiveModels: 2 },
        { activeModels: ['m2'], waitingModels: ['m1'], maxActiveModels: 5 },
        { activeModels: ['m2'], waitingModels: ['m1'], maxActiveModels: 2 },
        { activeModels: ['m2', 'm3'], waitingModels: [], maxActiveModels: 2 },
      ][i],
    );
    expect(both(s, eps, req)).toEqual([1, 0.8, 0.6, 0]);
  });
  it('scores endpoints without metrics 0', () => {
    expect(both(s, endpoints(1), req)).toEqual([0]);
  });
});
