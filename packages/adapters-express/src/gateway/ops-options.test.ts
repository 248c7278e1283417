import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EndpointPool, SwitchyardError } from '@switchyard/core';
import { FakeScheduler } from '@switchyard/core/testing';
import { startFakeUpstream, type FakeUpstream } from '../test-support/fake-upstream.js';
import { get, post, startGateway, type RunningGateway } from '../test-support/harness.js';

const chat = { model: 'm1', messages: [{ role: 'user', content: 'hi' }] };

describe('gateway: operational options', () => {
  let up: FakeUpstream;
  const open: RunningGateway[] = [];
  beforeAll(async () => {
    up = await startFakeUpstream('live');
  });
  afterAll(async () => {
    for (const g of open) await g.close();
    await up.close();
  });
  const gateway = async (extra: Parameters<typeof startGateway>[0] extends infer O ? Partial<O> : never = {}): Promise<{ gw: RunningGateway; scheduler: FakeScheduler }> => {
    const pool = new EndpointPool();
    pool.add({ address: up.address });
    const scheduler = new FakeScheduler(pool);
    const gw = await startGateway({ scheduler, endpoints: pool, ...extra });
    open.push(gw);
    return { gw, scheduler };
  };

  it('sends Retry-After with every 429 and with the buffers-full 503', async () => {
    const { gw, scheduler } = await gateway({ retryAfterSeconds: 3 });
    for (const code of ['REJECTED_SATURATED', 'REJECTED_TTL_EXPIRED', 'REJECTED_SHEDDABLE'] as const) {
      scheduler.behavior = () => new SwitchyardError(code, 'busy');
      const r = await post(`${gw.url}/v1/chat/completions`, chat);
      expect(r.status).toBe(429);
      expect(r.headers['retry-after']).toBe('3');
    }
    scheduler.behavior = () => new SwitchyardError('REJECTED_NO_ENDPOINTS', 'none');
    expect((await post(`${gw.url}/v1/chat/completions`, chat)).headers['retry-after']).toBeUndefined();
    const defaults = await gateway();
    defaults.scheduler.behavior = () => new SwitchyardError('REJECTED_SATURATED', 'busy');
    expect((await post(`${defaults.gw.url}/v1/chat/completions`, chat)).headers['retry-after']).toBe('1');
  });

  it('serves /metrics on the client port only when asked to', async () => {
    const { gw } = await gateway({ serveMetrics: false });
    expect((await get(`${gw.url}/metrics`)).status).toBe(404);
    expect((await get(`${gw.url}/healthz`)).status).toBe(200);
    expect(gw.handler.owns('GET', '/metrics')).toBe(false);
    expect(await gw.handler.metrics.registry.metrics()).toContain('switchyard_gateway_requests_total');
  });
});
