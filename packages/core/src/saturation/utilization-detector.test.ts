import { describe, expect, it } from 'vitest';
import {
  EndpointPool,
  ManualClock,
  createUtilizationDetector,
  utilizationDetectorPlugin,
  isSwitchyardError,
  type CycleContext,
  type Endpoint,
  type EndpointMetrics,
  type SchedulingRequest,
} from '@switchyard/core';

const metrics = (waiting: number, kv: number, updatedAt: number): EndpointMetrics => ({
  waitingQueueSize: waiting,
  runningRequestsSize: 0,
  kvCacheUsagePercent: kv,
  activeModels: [],
  waitingModels: [],
  maxActiveModels: 0,
  cacheBlockSize: 0,
  cacheNumBlocks: 0,
  updatedAt,
});

/** Builds endpoints with given metrics (undefined = never scraped) at clock time `now`. */
function endpoints(specs: readonly ({ q: number; kv: number; age?: number } | undefined)[], now: number): Endpoint[] {
  const pool = new EndpointPool();
  specs.forEach((s, i) => {
    pool.add({ address: `10.0.0.${i + 1}:8000` });
    if (s !== undefined) pool.setMetrics(`10.0.0.${i + 1}:8000`, metrics(s.q, s.kv, now - (s.age ?? 0)));
  });
  return [...pool.list()];
}

const ctx = (clock: ManualClock): CycleContext => ({ clock, random: Math.random, trace: undefined });
const req = {} as SchedulingRequest;

describe('utilization-detector saturation (llm-d case 10: Q=5, K=0.9)', () => {
  const now = 10_000;
  const d = createUtilizationDetector({ queueDepthThreshold: 5, kvCacheUtilThreshold: 0.9 });

  it('treats an empty pool as saturated', () => {
    expect(d.saturation([], now)).toBe(1);
  });
  it('takes the larger of the queue and KV ratios', () => {
    expect(d.saturation(endpoints([{ q: 2, kv: 0.5 }], now), now)).toBeCloseTo(0.5556, 4);
    expect(d.saturation(endpoints([{ q: 10, kv: 0 }], now), now)).toBeCloseTo(2, 10);
    expect(d.saturation(endpoints([{ q: 0, kv: 0.95 }], now), now)).toBeCloseTo(1.0556, 4);
  });
  it('counts stale or missing metrics as fully saturated', () => {
    expect(d.saturation(endpoints([{ q: 0, kv: 0, age: 201 }], now), now)).toBe(1);
    expect(d.saturation(endpoints([undefined], now), now)).toBe(1);
    expect(d.saturation(endpoints([{ q: 0, kv: 0, age: 200 }], now), now)).toBe(0);
  });
  it('averages endpoints without weights', () => {
    expect(d.saturation(endpoints([{ q: 1, kv: 0 }, { q: 0, kv: 0, age: 5000 }], now), now)).toBeCloseTo(0.6, 10);
    expect(d.saturation(endpoints([{ q: 1, kv: 0 }, { q: 15, kv: 0 }], now), now)).toBeCloseTo(1.6, 10);
  });
  it('adds pending dispatches to the queue depth, spread evenly', () => {
    const eps = endpoints([{ q: 0, kv: 0 }, { q: 0, kv: 0 }], now);
    expect(d.saturation(eps, now, { requests: 5, tokens: 0 })).toBeCloseTo(0.5, 10);
  });
  it('honours a custom staleness threshold given as a duration string', () => {
    const strict = createUtilizationDetector({ metricsStalenessThreshold: '50ms' });
    expect(strict.saturation(endpoints([{ q: 0, kv: 0, age: 60 }], now), now)).toBe(1);
    expect(strict.params.metricsStalenessThreshold).toBe(50);
  });
});

describe('utilization-detector endpointSaturationCap (Switchyard extension)', () => {
  const now = 10_000;
  it('caps each endpoint before averaging, so one backed-up pod counts as one', () => {
    const eps = endpoints([{ q: 28, kv: 0 }, { q: 0, kv: 0.4 }, { q: 0, kv: 0 }, { q: 0, kv: 0 }], now);
    expect(createUtilizationDetector().saturation(eps, now)).toBeCloseTo((5.6 + 0.5) / 4, 10);
    const capped = createUtilizationDetector({ endpointSaturationCap: 1 });
    expect(capped.saturation(eps, now)).toBeCloseTo((1 + 0.5) / 4, 10);
    expect(capped.endpointSaturation(eps[0]!, now)).toBeCloseTo(5.6, 10);
  });
  it('still reports a fleet of full pods as saturated', () => {
    const eps = endpoints([{ q: 28, kv: 0 }, { q: 6, kv: 0 }, { q: 0, kv: 0, age: 5000 }], now);
    expect(createUtilizationDetector({ endpointSaturationCap: 1 }).saturation(eps, now)).toBe(1);
  });
  it('rejects a cap that is not positive, naming the field', () => {
    expect(() => createUtilizationDetector({ endpointSaturationCap: 0 })).toThrow('endpointSaturationCap');
  });
});

describe('utilization-detector filter (llm-d case 11: Q=5, K=0.8, headroom 0.2)', () => {
  const clock = new ManualClock(1000);
  const d = createUtilizationDetector({ queueDepthThreshold: 5, kvCacheUtilThreshold: 0.8, headroom: 0.2 }, clock);

  it('keeps endpoints under the relaxed limits', () => {
    const eps = endpoints([{ q: 5, kv: 0.9 }, { q: 7, kv: 0 }, { q: 0, kv: 0.97 }], clock.now());
    expect(d.filter(ctx(clock), req, eps).map((e) => e.address)).toEqual(['10.0.0.1:8000']);
  });
  it('removes stale endpoints', () => {
    const eps = endpoints([{ q: 0, kv: 0 }, { q: 0, kv: 0, age: 1000 }], clock.now());
    expect(d.filter(ctx(clock), req, eps).map((e) => e.address)).toEqual(['10.0.0.1:8000']);
  });
  it('fails open when every endpoint would be removed', () => {
    const eps = endpoints([{ q: 9, kv: 0 }, { q: 0, kv: 0.99 }, undefined], clock.now());
    expect(d.filter(ctx(clock), req, eps)).toBe(eps);
  });
});

describe('utilization-detector parameters', () => {
  it('applies llm-d defaults', () => {
    expect(createUtilizationDetector().params).toEqual({
      queueDepthThreshold: 5,
      kvCacheUtilThreshold: 0.8,
      metricsStalenessThreshold: 200,
      headroom: 0,
    });
  });
  it('rejects bad values with the field named', () => {
    const bad = (p: Record<string, unknown>): string => {
      try {
        createUtilizationDetector(p);
      } catch (e) {
        expect(isSwitchyardError(e) && e.code === 'CONFIG_INVALID').toBe(true);
        return (e as Error).message;
      }
      throw new Error('expected a failure');
    };
    expect(bad({ queueDepthThreshold: 0 })).toMatch(/queueDepthThreshold/);
    expect(bad({ kvCacheUtilThreshold: 1.5 })).toMatch(/kvCacheUtilThreshold/);
    expect(bad({ metricsStalenessThreshold: '5 parsecs' })).toMatch(/metricsStalenessThreshold/);
    expect(bad({ metricsStalenessThreshold: '0s' })).toMatch(/strictly positive/);
    expect(bad({ headroom: -1 })).toMatch(/headroom/);
    expect(bad({ queueDepth: 3 })).toMatch(/queueDepth/);
  });
  it('is registered as a plugin definition that validates like the factory', () => {
    const params = utilizationDetectorPlugin.parameters.parse({ metricsStalenessThreshold: '1.5s' });
    const clock = new ManualClock();
    const plugin = utilizationDetectorPlugin.create(params, { name: 'util', clock, pool: new EndpointPool(), lookup: () => undefined });
    expect(plugin).toMatchObject({ type: 'utilization-detector', name: 'util' });
    expect((plugin as ReturnType<typeof createUtilizationDetector>).params.metricsStalenessThreshold).toBe(1500);
    expect(utilizationDetectorPlugin.parameters.parse(undefined)).toMatchObject({ queueDepthThreshold: 5 });
  });
});
