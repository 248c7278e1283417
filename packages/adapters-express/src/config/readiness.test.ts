import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayFromConfig, type Gateway } from '@switchyard/express';
import { waitFor } from '@switchyard/core/testing';
import { startFakeUpstream, type FakeUpstream } from '../test-support/fake-upstream.js';
import { deadAddress, get } from '../test-support/harness.js';

describe('/readyz follows the upstreams (switchyard-gateway with scraping)', () => {
  let up: FakeUpstream;
  const open: Gateway[] = [];
  beforeAll(async () => {
    up = await startFakeUpstream('live');
  });
  afterAll(async () => {
    for (const g of open) await g.close();
    await up.close();
  });
  const start = async (endpoints: string[]): Promise<string> => {
    const gw = await createGatewayFromConfig({ endpoints, config: 'gateway:\n  metrics:\n    scrapeIntervalMs: 50\n' });
    open.push(gw);
    return (await gw.listen(0, '127.0.0.1')).url;
  };

  it('is 503 while every upstream is down, 200 once one answers its metrics polls', async () => {
    const downUrl = await start([await deadAddress(), await deadAddress()]);
    const down = await get(`${downUrl}/readyz`);
    expect(down.status).toBe(503);
    expect(down.json()).toMatchObject({ status: 'no-endpoints' });
    const liveUrl = await start([up.address]);
    const status = await waitFor(async () => {
      const s = (await get(`${liveUrl}/readyz`)).status;
      return s === 200 ? s : undefined;
    }, { what: '/readyz answering 200' });
    expect(status).toBe(200);
  });

  it('serves /metrics only on gateway.metricsListen when it is set', async () => {
    const gw = await createGatewayFromConfig({ endpoints: [up.address], scrapeMetrics: false, config: 'gateway:\n  metricsListen: { port: 0, host: 127.0.0.1 }\n' });
    open.push(gw);
    const { url, metricsUrl } = await gw.listen(0, '127.0.0.1');
    expect((await get(`${url}/metrics`)).status).toBe(404);
    expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const text = (await get(`${metricsUrl ?? ''}/metrics`)).text;
    expect(text).toContain('switchyard_gateway_requests_total');
    expect(text).toContain('llm_d_epp_');
    expect((await get(`${metricsUrl ?? ''}/v1/models`)).status).toBe(404);
  });
});
