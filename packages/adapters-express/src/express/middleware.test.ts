import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import express from 'express';
import { EndpointPool } from '@switchyard/core';
import { switchyard } from '@switchyard/express';
import { FakeScheduler } from '@switchyard/core/testing';
import { startFakeUpstream, type FakeUpstream } from '../test-support/fake-upstream.js';
import { get, post } from '../test-support/harness.js';

describe('Express middleware', () => {
  let up: FakeUpstream;
  let server: Server;
  let url: string;
  let scheduler: FakeScheduler;
  const mw = { current: undefined as ReturnType<typeof switchyard> | undefined };

  beforeAll(async () => {
    up = await startFakeUpstream('u');
    const pool = new EndpointPool();
    pool.add({ address: up.address });
    scheduler = new FakeScheduler(pool);
    const app = express();
    app.get('/hello', (_req, res) => {
      res.json({ hi: true });
    });
    mw.current = switchyard({ scheduler, endpoints: pool, maxBodyBytes: 2048 });
    app.use(mw.current);
    // A JSON parser mounted under a prefix: the gateway re-serialises the parsed body.
    app.use('/parsed', express.json(), switchyard(mw.current.gateway));
    app.use((_req, res) => {
      res.status(404).json({ from: 'express' });
    });
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await mw.current?.gateway.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => { resolve(); }));
    await up.close();
  });

  it('serves inference routes and hands other paths to the next handler', async () => {
    const r = await post(`${url}/v1/chat/completions`, { model: 'm', messages: [{ role: 'user', content: 'x' }] });
    expect(r.status).toBe(200);
    expect(r.headers['x-gateway-destination-endpoint-served']).toBe(up.address);
    expect((await get(`${url}/hello`)).json()).toEqual({ hi: true });
    expect((await get(`${url}/nope`)).json()).toEqual({ from: 'express' });
    expect((await get(`${url}/healthz`)).status).toBe(200);
  });

  it('works behind express.json() under a mount path, warning once that the parser caps prompts', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error): void => { if ((w as Error & { code?: string }).code === 'SWITCHYARD_PARSED_BODY') warnings.push(w); };
    process.on('warning', onWarning);
    const r = await post(`${url}/parsed/v1/completions`, { model: 'm', prompt: 'p' });
    await post(`${url}/parsed/v1/completions`, { model: 'm', prompt: 'p' });
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', onWarning);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toMatch(/express\.json\(\).*100kb/);
    expect(r.status).toBe(200);
    expect(up.received.at(-1)).toMatchObject({ path: '/v1/completions', body: { model: 'm', prompt: 'p' } });
  });

  it('keeps the error contract (413, 400) inside Express', async () => {
    const big = await post(`${url}/v1/completions`, { model: 'm', prompt: 'x'.repeat(4096) });
    expect(big.status).toBe(413);
    const bad = await post(`${url}/v1/completions`, '{nope');
    expect(bad.status).toBe(400);
    expect(bad.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    expect(scheduler.badLifecycles()).toEqual([]);
  });
});
