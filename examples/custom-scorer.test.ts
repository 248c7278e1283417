import { afterEach, describe, expect, it } from 'vitest';
import { EndpointPool, SwitchyardError, parseRequest } from '@switchyard/core';
import { endpoints, instantiate, metrics, schedulingRequest, scoresOf } from '@switchyard/core/testing';
import { ZONE_AWARE_CONFIG, ZONE_LABEL, createZoneAwarePicker, zoneAffinityScorerPlugin } from './custom-scorer.js';

// The picker runs on the system clock, so metrics must look freshly scraped to count.
const fresh = (waitingQueueSize: number) => metrics({ waitingQueueSize, kvCacheUsagePercent: 0.2, updatedAt: performance.now() });

const request = () => parseRequest({ path: '/v1/completions', headers: {}, body: JSON.stringify({ model: 'm', prompt: 'hello' }) });

describe('zone-affinity-scorer on its own', () => {
  it('scores the local zone 1, other zones otherZoneScore, unlabelled endpoints unknownZoneScore', () => {
    const scorer = instantiate(zoneAffinityScorerPlugin, { zone: 'eu-west-1a', otherZoneScore: 0.25 });
    const zones = ['eu-west-1a', 'eu-west-1b', undefined];
    const eps = endpoints(['local', 'remote', 'unlabelled'], undefined, (i) => (zones[i] === undefined ? {} : { [ZONE_LABEL]: zones[i] ?? '' }));
    expect(scoresOf(scorer, schedulingRequest(), eps)).toEqual([1, 0.25, 0.5]);
  });

  it('rejects parameters the schema does not allow, as a config file would', () => {
    expect(() => instantiate(zoneAffinityScorerPlugin, { zone: '' })).toThrow();
    expect(() => instantiate(zoneAffinityScorerPlugin, { zone: 'a', extra: 1 })).toThrow();
  });
});

describe('custom scorer example', () => {
  const pool = new EndpointPool();
  afterEach(() => {
    pool.replaceAll([]);
  });

  it('prefers the local zone when load is equal', async () => {
    pool.add({ id: 'remote', address: '10.0.0.1:8000', labels: { [ZONE_LABEL]: 'eu-west-1b' } });
    pool.add({ id: 'local', address: '10.0.0.2:8000', labels: { [ZONE_LABEL]: 'eu-west-1a' } });
    for (const id of ['remote', 'local']) pool.setMetrics(id, fresh(1));
    const decision = await createZoneAwarePicker(pool).pick(request(), { trace: true });
    expect(decision.primary.id).toBe('local');
    expect(decision.trace?.profiles[0]?.scorers.find((s) => s.name === 'zone-affinity-scorer')?.scores).toEqual({ remote: 0, local: 1 });
    decision.complete({ kind: 'success' });
  });

  it('still goes cross-zone when the local endpoint is much busier', async () => {
    pool.add({ id: 'remote', address: '10.0.0.1:8000', labels: { [ZONE_LABEL]: 'eu-west-1b' } });
    pool.add({ id: 'local', address: '10.0.0.2:8000', labels: { [ZONE_LABEL]: 'eu-west-1a' } });
    pool.add({ id: 'local-idle-peer', address: '10.0.0.3:8000', labels: { [ZONE_LABEL]: 'eu-west-1c' } });
    pool.setMetrics('remote', fresh(0));
    pool.setMetrics('local', fresh(40));
    pool.setMetrics('local-idle-peer', fresh(40));
    // local: 2·0 + 3·1 = 3; remote: 2·1 + 3·0 = 2 — the zone still wins at weight 3...
    const d1 = await createZoneAwarePicker(pool).pick(request());
    expect(d1.primary.id).toBe('local');
    d1.complete({ kind: 'success' });
    // ...but not at weight 1, where the idle remote endpoint scores 2 against 1.
    const d2 = await createZoneAwarePicker(pool, ZONE_AWARE_CONFIG.replace('weight: 3', 'weight: 1')).pick(request());
    expect(d2.primary.id).toBe('remote');
    d2.complete({ kind: 'success' });
  });

  it('reports a bad parameter with its path', () => {
    let error: unknown;
    try {
      createZoneAwarePicker(pool, ZONE_AWARE_CONFIG.replace('zone: eu-west-1a', 'zone: eu-west-1a\n    otherZoneScore: high'));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SwitchyardError);
    expect((error as SwitchyardError).message).toBe('plugins[2].parameters.otherZoneScore: expected number, got string');
  });
});
