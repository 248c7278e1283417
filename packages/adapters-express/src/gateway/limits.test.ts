import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayFromConfig, type Gateway } from '@switchyard/express';
import { startFakeUpstream, type FakeUpstream } from '../test-support/fake-upstream.js';
import { get, post } from '../test-support/harness.js';

describe('gateway limits on client input (real picker, from a config)', () => {
  let up: FakeUpstream;
  let gw: Gateway;
  let url: string;

  beforeAll(async () => {
    up = await startFakeUpstream('a');
    const config = `gateway:\n  pools:\n    - name: p\n      endpoints: ["${up.address}"]\n      models: [real]\n  routes:\n    - name: alias\n      split: [{ pool: p, weight: 1, model: real }]\n`;
    gw = await createGatewayFromConfig({ config, scrapeMetrics: false });
    ({ url } = await gw.listen(0, '127.0.0.1'));
  });
  afterAll(async () => {
    await gw.close();
    await up.close();
  });

  it('answers deeply nested JSON with 400 naming the depth limit, never a picker failure', async () => {
    const depth = 6000;
    const body = `{"model":"alias","messages":[{"role":"user","content":"hi"}],"extra":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const r = await post(`${url}/v1/chat/completions`, body);
    expect(r.status).toBe(400);
    expect(r.text).toMatch(/deeper than the limit of 512 levels \(maxJsonDepth\)/);
    const metrics = (await get(`${url}/metrics`)).text;
    expect(metrics).not.toMatch(/switchyard_gateway_picker_failures_total\{[^}]*\} [1-9]/);
    // A body within the limit still goes through the rewrite.
    const ok = await post(`${url}/v1/chat/completions`, `{"model":"alias","messages":[{"role":"user","content":"hi"}],"extra":${'['.repeat(50)}${']'.repeat(50)}}`);
    expect(ok.status).toBe(200);
  });
});
