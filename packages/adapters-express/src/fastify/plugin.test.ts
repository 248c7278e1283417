import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { EndpointPool } from '@switchyard/core';
import { switchyardFastify } from '@switchyard/express/fastify';
import { FakeScheduler } from '@switchyard/core/testing';
import { startFakeUpstream, type FakeUpstream } from '../test-support/fake-upstream.js';
import { get, post } from '../test-support/harness.js';

describe('Fastify plugin', () => {
  let up: FakeUpstream;
  let app: FastifyInstance;
  let url: string;
  let scheduler: FakeScheduler;

  beforeAll(async () => {
    up = await startFakeUpstream('u');
    const pool = new EndpointPool();
    pool.add({ address: up.address });
    scheduler = new FakeScheduler(pool);
    app = Fastify();
    app.get('/hello', () => ({ hi: true }));
    app.post('/echo', (req) => ({ got: req.body }));
    await app.register(switchyardFastify, { gateway: { scheduler, endpoints: pool, maxBodyBytes: 2048 } });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
    await up.close();
  });

  it('serves inference and operational routes next to the app routes', async () => {
    const r = await post(`${url}/v1/chat/completions`, { model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true });
    expect(r.status).toBe(200);
    expect(r.text).toContain('data: [DONE]');
    expect((await get(`${url}/hello`)).json()).toEqual({ hi: true });
    expect((await get(`${url}/metrics`)).text).toContain('switchyard_gateway_requests_total');
    expect((await get(`${url}/v1/models`)).json()).toMatchObject({ data: [{ id: 'u-model' }] });
  });

  it('leaves the app\'s own JSON parsing alone (the raw parser is encapsulated)', async () => {
    expect((await post(`${url}/echo`, { a: 1 })).json()).toEqual({ got: { a: 1 } });
  });

  it('applies the gateway body limit and error contract, with or without a content type', async () => {
    const big = await post(`${url}/v1/completions`, { model: 'm', prompt: 'x'.repeat(4096) });
    expect(big.status).toBe(413);
    expect(big.json()).toMatchObject({ error: { code: 'payload_too_large' } });
    const bad = await post(`${url}/v1/completions`, 'not json', { 'content-type': 'text/plain' });
    expect(bad.status).toBe(400);
    expect(scheduler.badLifecycles()).toEqual([]);
  });

  it('serves under the prefix it is registered with', async () => {
    const pool = new EndpointPool();
    pool.add({ address: up.address });
    const prefixed = Fastify();
    await prefixed.register(switchyardFastify, { gateway: { scheduler: new FakeScheduler(pool), endpoints: pool }, prefix: '/llm' });
    const base = await prefixed.listen({ port: 0, host: '127.0.0.1' });
    try {
      const r = await post(`${base}/llm/v1/chat/completions?x=1`, { model: 'm', messages: [{ role: 'user', content: 'x' }] });
      expect(r.status).toBe(200);
      expect(r.text).toContain('Hello from u');
      expect((await get(`${base}/llm/healthz`)).status).toBe(200);
      expect((await get(`${base}/v1/chat/completions`)).status).toBe(404);
    } finally {
      await prefixed.close();
    }
  });
});
