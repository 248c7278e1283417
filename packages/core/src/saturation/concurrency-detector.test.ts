import { describe, expect, it } from 'vitest';
import {
  EndpointPool,
  ManualClock,
  concurrencyDetectorPlugin,
  createConcurrencyDetector,
  type CycleContext,
  type Endpoint,
  type SchedulingRequest,
} from '@switchyard/core';

function endpoints(load: readonly [requests: number, tokens: number][]): Endpoint[] {
  const pool = new EndpointPool();
  load.forEach(([r, t], i) => {
    const address = `10.0.1.${i + 1}:8000`;
    pool.add({ address });
    pool.addInFlight(address, r, t);
  });
  return [...pool.list()];
}

const ctx: CycleContext = { clock: new ManualClock(), random: Math.random, trace: undefined };
const req = {} as SchedulingRequest;

describe('concurrency-detector saturation (llm-d case 12)', () => {
  it('treats an empty pool as saturated', () => {
    expect(createConcurrencyDetector().saturation([], 0)).toBe(1);
  });
  it('requests mode: total in-flight over total capacity', () => {
    const d = createConcurrencyDetector({ maxConcurrency: 10 });
    expect(d.saturation(endpoints([[5, 0], [5, 0]]), 0)).toBe(0.5);
    expect(d.saturation(endpoints([[10, 0], [0, 0]]), 0)).toBe(0.5);
  });
  it('tokens mode: total tokens over total token capacity', () => {
    const d = createConcurrencyDetector({ concurrencyMode: 'tokens', maxTokenConcurrency: 200 });
    expect(d.saturation(endpoints([[1, 50]]), 0)).toBe(0.25);
  });
  it('hybrid mode: mean of the per-endpoint tighter ratio', () => {
    const d = createConcurrencyDetector({ concurrencyMode: 'hybrid', maxConcurrency: 10, maxTokenConcurrency: 100 });
    expect(d.saturation(endpoints([[2, 80]]), 0)).toBeCloseTo(0.8, 10);
    expect(d.saturation(endpoints([[2, 80], [10, 0]]), 0)).toBeCloseTo(0.9, 10);
  });
  it('counts pending load as if already placed', () => {
    const d = createConcurrencyDetector({ maxConcurrency: 10 });
    expect(d.saturation(endpoints([[3, 0], [3, 0]]), 0, { requests: 4, tokens: 0 })).toBe(0.5);
    const h = createConcurrencyDetector({ concurrencyMode: 'hybrid', maxConcurrency: 10, maxTokenConcurrency: 100 });
    expect(h.saturation(endpoints([[0, 0], [0, 0]]), 0, { requests: 2, tokens: 100 })).toBeCloseTo(0.5, 10);
  });
});

describe('concurrency-detector filter', () => {
  it('keeps endpoints below floor(max * (1 + headroom))', () => {
    const d = createConcurrencyDetector({ maxConcurrency: 10, headroom: 0.25 });
    const eps = endpoints([[11, 0], [12, 0], [13, 0]]);
    expect(d.filter(ctx, req, eps).map((e) => e.inFlightRequests)).toEqual([11]);
  });
  it('does not fail open', () => {
    const d = createConcurrencyDetector({ maxConcurrency: 2 });
    expect(d.filter(ctx, req, endpoints([[2, 0], [5, 0]]))).toEqual([]);
  });
  it('checks both limits in hybrid mode and only tokens in tokens mode', () => {
    const eps = endpoints([[1, 100], [10, 1], [1, 1]]);
    const hybrid = createConcurrencyDetector({ concurrencyMode: 'hybrid', maxConcurrency: 10, maxTokenConcurrency: 100 });
    expect(hybrid.filter(ctx, req, eps).map((e) => e.address)).toEqual(['10.0.1.3:8000']);
    const tokens = createConcurrencyDetector({ concurrencyMode: 'tokens', maxTokenConcurrency: 100 });
    expect(tokens.filter(ctx, req, eps).map((e) => e.address)).toEqual(['10.0.1.2:8000', '10.0.1.3:8000']);
  });
});

describe('concurrency-detector parameters', () => {
  it('applies llm-d defaults and rejects bad values', () => {
    expect(createConcurrencyDetector().params).toEqual({ concurrencyMode: 'requests', maxConcurrency: 100, maxTokenConcurrency: 1_000_000, headroom: 0 });
    expect(() => createConcurrencyDetector({ concurrencyMode: 'bytes' as never })).toThrow(/concurrencyMode/);
    expect(() => createConcurrencyDetector({ maxConcurrency: 0 })).toThrow(/maxConcurrency/);
    expect(() => createConcurrencyDetector({ maxTokenConcurrency: 1.5 })).toThrow(/maxTokenConcurrency/);
  });
  it('builds from config parameters through its plugin definition', () => {
    const params = concurrencyDetectorPlugin.parameters.parse({ maxConcurrency: 132, concurrencyMode: 'requests', headroom: 0.0 });
    const plugin = concurrencyDetectorPlugin.create(params, { name: 'cd', clock: new ManualClock(), pool: new EndpointPool(), lookup: () => undefined });
    expect(plugin).toMatchObject({ type: 'concurrency-detector', name: 'cd', params: { maxConcurrency: 132 } });
    expect(() => concurrencyDetectorPlugin.parameters.parse({ maxConcurrency: 1, extra: true })).toThrow();
  });
});
