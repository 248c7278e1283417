import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EndpointPool, ManualClock, SwitchyardError, type EndpointMetrics } from '@switchyard/core';
import { ENDPOINT_ROTATION_DEFAULTS, EndpointRotation } from '@switchyard/express';

const metrics = (updatedAt: number): EndpointMetrics => ({
  waitingQueueSize: 0,
  runningRequestsSize: 0,
  kvCacheUsagePercent: 0.1,
  activeModels: [],
  waitingModels: [],
  maxActiveModels: 0,
  cacheBlockSize: 16,
  cacheNumBlocks: 100,
  updatedAt,
});

function setup(opts: { threshold?: number; cooldownMs?: number; probeAfterMs?: number; minInRotation?: number } = {}): { clock: ManualClock; source: EndpointPool; rotation: EndpointRotation } {
  const clock = new ManualClock(1000);
  const source = new EndpointPool();
  source.add({ address: '10.0.0.1:8000' });
  source.add({ address: '10.0.0.2:8000' });
  source.add({ address: '10.0.0.3:8000' });
  const rotation = new EndpointRotation({ source, clock, failureThreshold: opts.threshold ?? 3, cooldownMs: opts.cooldownMs ?? 5000, probeAfterMs: opts.probeAfterMs ?? 0, minInRotation: opts.minInRotation ?? 1 });
  return { clock, source, rotation };
}

const ids = (p: EndpointPool): string[] => p.list().map((e) => e.id);

describe('EndpointRotation', () => {
  it('mirrors the source pool: members, labels and metrics', () => {
    const { source, rotation } = setup();
    expect(ids(rotation.pool)).toEqual(ids(source));
    source.add({ address: '10.0.0.4:8000', labels: { 'llm-d.ai/role': 'decode' } });
    expect(rotation.pool.get('10.0.0.4:8000')?.labels).toEqual({ 'llm-d.ai/role': 'decode' });
    source.setMetrics('10.0.0.1:8000', metrics(1));
    expect(rotation.pool.get('10.0.0.1:8000')?.metrics?.updatedAt).toBe(1);
    source.remove('10.0.0.2:8000');
    expect(ids(rotation.pool)).toEqual(['10.0.0.1:8000', '10.0.0.3:8000', '10.0.0.4:8000']);
  });

  it('opens after N consecutive failures; a success in between resets the count', () => {
    const { rotation } = setup({ threshold: 3 });
    const id = '10.0.0.1:8000';
    rotation.recordFailure(id);
    rotation.recordFailure(id);
    rotation.recordSuccess(id);
    rotation.recordFailure(id);
    rotation.recordFailure(id);
    expect(rotation.isOut(id)).toBe(false);
    rotation.recordFailure(id);
    expect(rotation.isOut(id)).toBe(true);
    expect(rotation.pool.get(id)).toBeUndefined();
    expect(rotation.outOfRotation()).toEqual([id]);
  });

  it('brings an endpoint back half-open only on metrics newer than the cooldown, then closes on success', () => {
    const { clock, source, rotation } = setup({ threshold: 1, cooldownMs: 5000 });
    const id = '10.0.0.1:8000';
    const events: string[] = [];
    rotation.on('open', () => events.push('open')).on('halfOpen', () => events.push('half')).on('close', () => events.push('close'));
    rotation.recordFailure(id);
    clock.advance(1000);
    source.setMetrics(id, metrics(clock.now()));
    expect(rotation.isOut(id)).toBe(true);
    clock.advance(5000);
    source.setMetrics(id, metrics(clock.now()));
    expect(rotation.isOut(id)).toBe(false);
    expect(rotation.pool.get(id)?.metrics?.updatedAt).toBe(clock.now());
    rotation.recordSuccess(id);
    expect(events).toEqual(['open', 'half', 'close']);
  });

  it('re-opens at the first failure on probation', () => {
    const { clock, rotation } = setup({ threshold: 5, probeAfterMs: 30_000 });
    const id = '10.0.0.2:8000';
    for (let i = 0; i < 5; i++) rotation.recordFailure(id);
    expect(rotation.isOut(id)).toBe(true);
    clock.advance(30_000);
    expect(rotation.isOut(id)).toBe(false);
    rotation.recordFailure(id);
    expect(rotation.isOut(id)).toBe(true);
  });

  it('never empties the rotation below minInRotation', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 3 }), fc.boolean()), { maxLength: 60 }), (ops) => {
        const { rotation } = setup({ threshold: 2, minInRotation: 1 });
        for (const [n, ok] of ops) {
          const id = `10.0.0.${n}:8000`;
          if (ok) rotation.recordSuccess(id);
          else rotation.recordFailure(id);
          expect(rotation.pool.size).toBeGreaterThanOrEqual(1);
          expect(rotation.pool.size + rotation.outOfRotation().length).toBe(3);
        }
      }),
    );
  });

  it('forgets endpoints that leave the source and stops mirroring when closed', () => {
    const { source, rotation, clock } = setup({ threshold: 1, probeAfterMs: 1000 });
    rotation.recordFailure('10.0.0.3:8000');
    source.remove('10.0.0.3:8000');
    clock.advance(2000);
    expect(rotation.pool.get('10.0.0.3:8000')).toBeUndefined();
    expect(rotation.outOfRotation()).toEqual([]);
    rotation.close();
    source.add({ address: '10.0.0.9:8000' });
    expect(rotation.pool.get('10.0.0.9:8000')).toBeUndefined();
    expect(clock.pendingTimers).toBe(0);
  });
});

describe('EndpointRotation options', () => {
  const source = (): EndpointPool => new EndpointPool();

  it('defaults to ENDPOINT_ROTATION_DEFAULTS', () => {
    expect(ENDPOINT_ROTATION_DEFAULTS).toEqual({ failureThreshold: 5, cooldownMs: 5000, probeAfterMs: 30_000, minInRotation: 1 });
    const clock = new ManualClock(0);
    const pool = source();
    pool.add({ address: '10.0.0.1:8000' });
    pool.add({ address: '10.0.0.2:8000' });
    const rotation = new EndpointRotation({ source: pool, clock });
    for (let i = 0; i < 4; i++) rotation.recordFailure('10.0.0.1:8000');
    expect(rotation.isOut('10.0.0.1:8000')).toBe(false);
    rotation.recordFailure('10.0.0.1:8000');
    expect(rotation.isOut('10.0.0.1:8000')).toBe(true);
    rotation.close();
  });

  it.each([
    ['failureThreshold', 0, 'must be an integer ≥ 1'],
    ['failureThreshold', 1.5, 'must be an integer ≥ 1'],
    ['cooldownMs', -1, 'must be a number ≥ 0'],
    ['probeAfterMs', -5, 'must be a number ≥ 0'],
    ['minInRotation', -1, 'must be an integer ≥ 0'],
  ] as const)('refuses %s: %s instead of clamping it, naming the field', (key, value, rule) => {
    const make = (): EndpointRotation => new EndpointRotation({ source: source(), [key]: value });
    expect(make).toThrow(SwitchyardError);
    expect(make).toThrow(`gateway.circuitBreaker.${key}: ${rule}, got ${value}`);
    try {
      make();
    } catch (err) {
      expect((err as SwitchyardError).field).toBe(`gateway.circuitBreaker.${key}`);
    }
  });
});
