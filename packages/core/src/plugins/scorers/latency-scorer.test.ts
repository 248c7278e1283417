import { describe, expect, it } from 'vitest';
import {
  Attributes,
  ManualClock,
  createEwmaLatencyPredictor,
  createPredictedLatencyProducer,
  latencyScorerPlugin,
  type LatencyPrediction,
  type Scorer,
} from '@switchyard/core';
import { cycleContext, endpoints, instantiate, poolOf, schedulingRequest, scoresOf } from '../../testing/index.js';

const withPredictions = (preds: Record<string, LatencyPrediction>, slo: { ttft?: number; tpot?: number } = { ttft: 100, tpot: 20 }) => {
  const req = schedulingRequest({ sloTtftMs: slo.ttft, sloTpotMs: slo.tpot });
  req.attributes.set(Attributes.predictedLatency, new Map(Object.entries(preds)));
  return req;
};

describe('latency-scorer', () => {
  const least = instantiate(latencyScorerPlugin) as Scorer;
  const most = instantiate(latencyScorerPlugin, { headroomSelectionStrategy: 'most' }) as Scorer;

  it('falls back to the composite of KV, queue and prefix without predictions', () => {
    const eps = endpoints(2, (i) => [{ kvCacheUsagePercent: 0.5, waitingQueueSize: 0 }, { kvCacheUsagePercent: 0, waitingQueueSize: 4 }][i]);
    const req = schedulingRequest();
    req.attributes.set(Attributes.prefixMatch, new Map([['e1', { matchBlocks: 3, totalBlocks: 4, blockSizeTokens: 16, cachedBlocks: 3 }]]));
    // e0: (0.5 + 1 + 0)/3 = 0.5; e1: (1 + 0 + 0.75)/3 = 0.5833 → 0.58
    expect(scoresOf(least, req, eps)).toEqual([0.5, 0.58]);
  });

  it('scores positive-headroom endpoints by normalised headroom (least packs, most spreads)', () => {
    const eps = endpoints(4);
    const req = withPredictions({ e0: { ttftMs: 50, tpotMs: 10 }, e1: { ttftMs: 90, tpotMs: 15 }, e2: { ttftMs: 150, tpotMs: 10 } });
    // e0 has the most headroom, e1 the least; e2 misses the TTFT SLO; e3 has no prediction.
    expect(scoresOf(least, req, eps)).toEqual([0.01, 1.01, 0, 0.51]);
    expect(scoresOf(most, req, eps)).toEqual([1.01, 0.01, 0, 0.51]);
  });

  it('gives a zero-range dimension weight 0', () => {
    const req = withPredictions({ e0: { ttftMs: 50, tpotMs: 10 }, e1: { ttftMs: 90, tpotMs: 10 } });
    // TPOT headroom is equal, so only TTFT (α = 0.8) counts: c = 0.8 for e0, 0 for e1.
    expect(scoresOf(least, req, endpoints(2))).toEqual([0.2, 1.01]); // (1 − 0.8)·100 is 19.999… in float64, as in Go
  });

  it('prefers idle endpoints when nobody has non-negative headroom', () => {
    const pool = poolOf(3);
    pool.addInFlight('e0', 1, 10);
    pool.addInFlight('e2', 1, 10);
    const req = withPredictions({ e0: { ttftMs: 150, tpotMs: 30 }, e1: { ttftMs: 120, tpotMs: 10 }, e2: { ttftMs: 50, tpotMs: 30 } });
    expect(scoresOf(least, req, pool.list())).toEqual([0, 1, 0]);
  });

  it('otherwise scores the first non-empty negative tier: TPOT-only, then TTFT-only, then both', () => {
    const pool = poolOf(3);
    for (const id of ['e0', 'e1', 'e2']) pool.addInFlight(id, 1, 10);
    const req = withPredictions({ e0: { ttftMs: 150, tpotMs: 30 }, e1: { ttftMs: 120, tpotMs: 10 }, e2: { ttftMs: 50, tpotMs: 30 } });
    expect(scoresOf(least, req, pool.list())).toEqual([0, 0, 1.01]);
    const noTpotOnly = withPredictions({ e0: { ttftMs: 150, tpotMs: 30 }, e1: { ttftMs: 120, tpotMs: 10 }, e2: { ttftMs: 110, tpotMs: 10 } });
    // TTFT-only tier {e1: −20, e2: −10} uses `least`: the smaller deficit scores higher.
    expect(scoresOf(most, noTpotOnly, pool.list())).toEqual([0, 0.2, 1.01]);
  });

  it('without SLO headers prefers lower predicted latency under both strategies', () => {
    const req = withPredictions({ e0: { ttftMs: 50, tpotMs: 10 }, e1: { ttftMs: 90, tpotMs: 30 } }, {});
    const [a, b] = scoresOf(least, req, endpoints(2));
    expect(a).toBeGreaterThan(b!);
    const [c, d] = scoresOf(most, req, endpoints(2));
    expect(c).toBeGreaterThan(d!);
  });
});

describe('predicted-latency producer', () => {
  it('learns TTFT and TPOT from the lifecycle and publishes predictions', () => {
    const clock = new ManualClock();
    const producer = createPredictedLatencyProducer({ clock, predictor: createEwmaLatencyPredictor({ alpha: 0.5 }) });
    const eps = endpoints(2);
    const ctx = cycleContext({ clock });
    const run = (ttft: number, total: number, tokens: number) => {
      const req = schedulingRequest({ receivedAt: clock.now() });
      clock.advance(ttft);
      producer.onResponseStart?.(req, { endpoint: eps[0]!, status: 200, at: clock.now() });
      clock.advance(total - ttft);
      producer.onUsage?.(req, { promptTokens: 10, completionTokens: tokens }, eps[0]!);
      producer.onComplete?.(req, { kind: 'success' }, eps[0]);
    };
    const fresh = schedulingRequest();
    void producer.produce(ctx, fresh, eps);
    expect(fresh.attributes.has(Attributes.predictedLatency)).toBe(false);

    run(100, 1100, 11); // TTFT 100, TPOT 1000/10 = 100
    run(200, 400, 21); // TTFT 200, TPOT 10
    const req = schedulingRequest();
    void producer.produce(ctx, req, eps);
    expect([...(req.attributes.get(Attributes.predictedLatency) ?? new Map())]).toEqual([['e0', { ttftMs: 150, tpotMs: 55 }]]);
  });

  it('ignores failed requests for TPOT', () => {
    const clock = new ManualClock();
    const predictor = createEwmaLatencyPredictor();
    const producer = createPredictedLatencyProducer({ clock, predictor });
    const eps = endpoints(1);
    const req = schedulingRequest();
    producer.onResponseStart?.(req, { endpoint: eps[0]!, status: 200, at: 5 });
    producer.onComplete?.(req, { kind: 'error', status: 500 }, eps[0]);
    expect(predictor.predict(eps[0]!, req)).toBeUndefined();
  });
});
