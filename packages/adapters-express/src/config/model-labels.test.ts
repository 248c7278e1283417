import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayFromConfig, type Gateway } from '@switchyard/express';
import { startFakeUpstream, type FakeUpstream } from '../test-support/fake-upstream.js';
import { get, post } from '../test-support/harness.js';

describe('metric labels of client-chosen model names (single pool, switchyard-gateway)', () => {
  let up: FakeUpstream;
  let gw: Gateway;
  let url: string;
  beforeAll(async () => {
    up = await startFakeUpstream('a');
    gw = await createGatewayFromConfig({ endpoints: [up.address], scrapeMetrics: false });
    ({ url } = await gw.listen(0, '127.0.0.1'));
  });
  afterAll(async () => {
    await gw.close();
    await up.close();
  });

  it('labels models the endpoints list, and counts every other name under one label', async () => {
    const labelled = /llm_d_epp_request_total\{model_name="a-model",target_model_name="a-model"/;
    let text = '';
    // The endpoints' /v1/models list is learned in the background: wait for the served model's label.
    for (let i = 0; i < 200 && !labelled.test(text); i++) {
      expect((await post(`${url}/v1/completions`, { model: 'a-model', prompt: 'hi' })).status).toBe(200);
      text = (await get(`${url}/metrics`)).text;
    }
    expect(text).toMatch(labelled);
    for (let i = 0; i < 30; i++) expect((await post(`${url}/v1/completions`, { model: `random-${i}`, prompt: 'hi' })).status).toBe(200);
    text = (await get(`${url}/metrics`)).text;
    expect(text).not.toMatch(/random-/);
    const unknown = /llm_d_epp_request_total\{model_name="__unknown__",target_model_name="__unknown__",fairness_id="default-flow",priority="0"\} (\d+)/.exec(text);
    expect(Number(unknown?.[1])).toBeGreaterThanOrEqual(30);
  });
});
