import { describe, expect, it } from 'vitest';
import { EndpointPool, SwitchyardError, type Endpoint, type EndpointMetrics } from '@switchyard/core';

const metrics = (running: number): EndpointMetrics => ({
  waitingQueueSize: 0,
  runningRequestsSize: running,
  kvCacheUsagePercent: 0.1,
  activeModels: [],
  waitingModels: [],
  maxActiveModels: 0,
  cacheBlockSize: 16,
  cacheNumBlocks: 100,
  updatedAt: 0,
});

describe('EndpointPool', () => {
  it('adds, updates and removes endpoints with events and a cached list', () => {
    const pool = new EndpointPool();
    const events: string[] = [];
    pool.on('added', (e) => events.push(`added ${e.id}`));
    pool.on('updated', (e) => events.push(`updated ${e.id}`));
    pool.on('removed', (e) => events.push(`removed ${e.id}`));
    const a = pool.add({ address: '10.0.0.1:8000' });
    pool.add({ id: 'b', address: '[::1]:8001', metricsPort: 9090, labels: { 'llm-d.ai/engine-type': 'sglang' } });
    expect(a).toMatchObject({ id: '10.0.0.1:8000', ip: '10.0.0.1', port: 8000, metricsPort: 8000, engineType: 'vllm', inFlightRequests: 0 });
    expect(pool.get('b')).toMatchObject({ ip: '::1', port: 8001, metricsPort: 9090, engineType: 'sglang' });
    const list = pool.list();
    expect(pool.list()).toBe(list);
    pool.upsert({ address: '10.0.0.1:8000', labels: { 'inference.networking.k8s.io/engine-type': 'trtllm-serve' } });
    expect(a.engineType).toBe('trtllm-serve');
    expect(pool.remove('b')).toBe(true);
    expect(pool.remove('b')).toBe(false);
    expect(pool.list()).not.toBe(list);
    expect(pool.size).toBe(1);
    expect(events).toEqual(['added 10.0.0.1:8000', 'added b', 'updated 10.0.0.1:8000', 'removed b']);
  });

  it('rejects duplicate ids and bad addresses', () => {
    const pool = new EndpointPool();
    pool.add({ id: 'x', address: '10.0.0.1:8000' });
    expect(() => pool.add({ id: 'x', address: '10.0.0.2:8000' })).toThrow(SwitchyardError);
    expect(() => pool.add({ address: 'nope' })).toThrow(/invalid endpoint address "nope"/);
  });

  it('stores pushed metrics for known ids only and emits them', () => {
    const pool = new EndpointPool();
    pool.add({ id: 'x', address: '10.0.0.1:8000' });
    const seen: Endpoint[] = [];
    pool.on('metrics', (e) => seen.push(e));
    pool.setMetrics('x', metrics(3));
    pool.setMetrics('unknown', metrics(9));
    expect(pool.get('x')?.metrics?.runningRequestsSize).toBe(3);
    expect(seen.map((e) => e.id)).toEqual(['x']);
  });

  it('replaces membership and keeps in-flight counts non-negative', () => {
    const pool = new EndpointPool();
    pool.replaceAll([{ id: 'a', address: '10.0.0.1:1' }, { id: 'b', address: '10.0.0.2:1' }]);
    pool.addInFlight('a', 2, 100);
    pool.addInFlight('a', -5, -50);
    pool.addInFlight('zzz', 1, 1);
    expect(pool.get('a')).toMatchObject({ inFlightRequests: 0, inFlightTokens: 50 });
    pool.replaceAll([{ id: 'b', address: '10.0.0.2:2' }, { id: 'c', address: '10.0.0.3:1' }]);
    expect(pool.list().map((e) => `${e.id}@${e.address}`)).toEqual(['b@10.0.0.2:2', 'c@10.0.0.3:1']);
  });
});
