import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayFromConfig, type Gateway } from '@switchyard/express';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream.js';
import { deadAddress, get } from '../testing/harness.js';

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
    let status = 0;
    for (let i = 0; i < 200 && status !== 200; i++) {
      status = (await get(`${liveUrl}/readyz`)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 10));
    }
    expect(status).toBe(200);
  });
});
