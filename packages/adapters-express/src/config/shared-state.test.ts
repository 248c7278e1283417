import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemoryStateHub, ReplicaSync } from '@switchyard/core';
import { createGatewayFromConfig } from '@switchyard/express';
import { startRedisServer, type RedisServerHandle } from '@switchyard/redis';

const ENDPOINTS = ['10.0.0.1:8000', '10.0.0.2:8000'];

let redis: RedisServerHandle;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis.stop();
});

describe('gateway shared state settings', () => {
  it.each([
    [{ redisUrl: 'http://x:6379' }, undefined, /--redis-url: expected redis:\/\/host:port/],
    [{}, { gateway: { sharedState: { redisUrl: 'localhost' } } }, /gateway\.sharedState\.redisUrl/],
    [{}, { gateway: { sharedState: { redisUrl: 'redis://h:1', syncInterval: 'soon' } } }, /gateway\.sharedState\.syncInterval/],
    [{}, { apiVersion: 'llm-d.ai/v1alpha1', kind: 'EndpointPickerConfig', switchyard: { sharedState: { redisUrl: 'redis://h:1', maxStaleness: -1 } } }, /switchyard\.sharedState\.maxStaleness/],
  ])('rejects %j / %j naming the field', async (options, config, message) => {
    await expect(createGatewayFromConfig({ endpoints: ENDPOINTS, scrapeMetrics: false, ...options, ...(config === undefined ? {} : { config }) })).rejects.toThrow(message);
  });

  it('--redis-url wins over the block; the interval and key prefix come from it; metrics on /metrics', async () => {
    const config = { apiVersion: 'llm-d.ai/v1alpha1', kind: 'EndpointPickerConfig', gateway: { sharedState: { redisUrl: 'redis://127.0.0.1:1', syncInterval: '120ms', replicaId: 'gw-a', keyPrefix: 'cfg:' } } };
    const gw = await createGatewayFromConfig({ endpoints: ENDPOINTS, scrapeMetrics: false, config, redisUrl: redis.url });
    try {
      // 120 ms rounds up to the 50 ms data-layer tick.
      expect(gw.sharedState).toMatchObject({ replicaId: 'gw-a', syncIntervalMs: 150 });
      for (let i = 0; i < 100 && !gw.sharedState?.status().connected; i++) await gw.sharedState?.syncNow();
      expect(gw.sharedState?.status().connected).toBe(true);
      expect(await gw.registry.metrics()).toContain('switchyard_shared_state_connected 1');
    } finally {
      await gw.close();
    }
  });

  it('without a Redis URL nothing is shared; an injected ReplicaSync is attached, started and closed', async () => {
    const alone = await createGatewayFromConfig({ endpoints: ENDPOINTS, scrapeMetrics: false, config: { gateway: { sharedState: { syncInterval: 100 } } } });
    expect(alone.sharedState).toBeUndefined();
    await alone.close();
    const hub = new InMemoryStateHub();
    const a = new ReplicaSync({ transport: hub.transport('a'), replicaId: 'a' });
    const b = new ReplicaSync({ transport: hub.transport('b'), replicaId: 'b' });
    const gws = [await createGatewayFromConfig({ endpoints: ENDPOINTS, scrapeMetrics: false, sharedState: a }), await createGatewayFromConfig({ endpoints: ENDPOINTS, scrapeMetrics: false, sharedState: b })];
    // Started by the gateways; a sees b once b has written its snapshot.
    await b.syncNow();
    await a.syncNow();
    expect(a.status()).toMatchObject({ connected: true, peers: 1 });
    await Promise.all(gws.map((g) => g.close()));
    // Closed with the gateway: no more exchanges.
    expect(await a.syncNow()).toBe(false);
  });
});
