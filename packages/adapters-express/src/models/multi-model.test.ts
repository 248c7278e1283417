import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EndpointPool } from '@switchyard/core';
import { ModelRegistry } from '@switchyard/express';
import { FakeScheduler } from '@switchyard/core/testing';
import { startFakeUpstream, type FakeUpstream } from '../test-support/fake-upstream.js';
import { get, post, startGateway, type RunningGateway } from '../test-support/harness.js';

describe('multi-model gateway', () => {
  let llamaUp: FakeUpstream;
  let qwenUp: FakeUpstream;
  let gw: RunningGateway;
  let llama: FakeScheduler;
  let qwen: FakeScheduler;

  beforeAll(async () => {
    llamaUp = await startFakeUpstream('llama');
    qwenUp = await startFakeUpstream('qwen');
    const lp = new EndpointPool();
    lp.add({ address: llamaUp.address });
    const qp = new EndpointPool();
    qp.add({ address: qwenUp.address });
    llama = new FakeScheduler(lp);
    qwen = new FakeScheduler(qp);
    let n = 0;
    const models = new ModelRegistry({
      pools: [
        { name: 'llama', scheduler: llama, endpoints: lp, models: ['llama-3', 'sql-lora'] },
        { name: 'qwen', scheduler: qwen, endpoints: qp, models: ['qwen-2'] },
      ],
      routes: [{ name: 'best', split: [{ pool: 'llama', weight: 1, model: 'llama-3' }, { pool: 'qwen', weight: 1, model: 'qwen-2' }] }],
      random: () => (n++ % 2) / 2,
    });
    gw = await startGateway({ models });
  });
  afterAll(async () => {
    await gw.close();
    await llamaUp.close();
    await qwenUp.close();
  });

  const ask = (model: string): ReturnType<typeof post> => post(`${gw.url}/v1/completions`, { model, prompt: 'hello' });

  it('routes each model and LoRA adapter to its own pool', async () => {
    expect((await ask('sql-lora')).headers['x-gateway-destination-endpoint-served']).toBe(llamaUp.address);
    expect((await ask('qwen-2')).headers['x-gateway-destination-endpoint-served']).toBe(qwenUp.address);
    expect(llama.decisions.at(-1)?.scheduled.targetModel).toBe('sql-lora');
  });

  it('answers an unknown model with 404 model_not_found', async () => {
    const r = await ask('gpt-4');
    expect(r.status).toBe(404);
    expect(r.json()).toMatchObject({ error: { code: 'model_not_found', type: 'invalid_request_error' } });
    expect(r.text).toContain('gpt-4');
  });

  it('splits a route across pools, renaming per branch and restoring the client name', async () => {
    const served = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const r = await ask('best');
      served.add(String(r.headers['x-gateway-destination-endpoint-served']));
      expect((r.json() as { model: string }).model).toBe('best');
    }
    expect(served).toEqual(new Set([llamaUp.address, qwenUp.address]));
    expect(qwenUp.received.at(-1)?.body.model).toBe('qwen-2');
  });

  it('lists every model, adapter and route on /v1/models', async () => {
    const r = await get(`${gw.url}/v1/models`);
    expect((r.json() as { data: { id: string }[] }).data.map((m) => m.id)).toEqual(['llama-3', 'sql-lora', 'qwen-2', 'best']);
  });
});
