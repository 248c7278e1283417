import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as undiciRequest } from 'undici';
import { EndpointPool } from '@switchyard/core';
import { FakeScheduler, waitFor } from '@switchyard/core/testing';
import { startFakeUpstream, type FakeUpstream } from '../test-support/fake-upstream.js';
import { get, post, startGateway } from '../test-support/harness.js';

const chat = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ model: 'm1', messages: [{ role: 'user', content: 'hi' }], ...extra });
const until = (cond: () => boolean): Promise<true> => waitFor(cond) as Promise<true>;

describe('graceful shutdown', () => {
  let up: FakeUpstream;
  beforeAll(async () => {
    up = await startFakeUpstream('u');
  });
  afterAll(async () => {
    await up.close();
  });

  it('rejects queued requests with 503 rejected-shutting-down and lets in-flight ones finish', async () => {
    const pool = new EndpointPool();
    pool.add({ address: up.address });
    const scheduler = new FakeScheduler(pool);
    const gw = await startGateway({ scheduler, endpoints: pool });
    // One request streaming slowly (in flight), one stuck in the scheduler's queue.
    const streaming = undiciRequest(`${gw.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify(chat({ stream: true })), headers: { 'x-test-behavior': 'slow-stream' } });
    await until(() => up.open === 1);
    scheduler.behavior = () => 'queue';
    const queued = post(`${gw.url}/v1/chat/completions`, chat());
    await until(() => scheduler.waiting === 1);

    const closing = gw.handler.close({ graceMs: 10_000 });
    const q = await queued;
    expect(q.status).toBe(503);
    expect(q.headers['x-llm-d-request-dropped-reason']).toBe('rejected-shutting-down');
    expect(gw.handler.shuttingDown).toBe(true);
    expect((await get(`${gw.url}/readyz`)).status).toBe(503);
    const late = await post(`${gw.url}/v1/chat/completions`, chat());
    expect(late.status).toBe(503);
    expect(late.json()).toMatchObject({ error: { code: 'rejected_shutting_down' } });

    const s = await streaming;
    const text = await s.body.text();
    expect(text).toContain('data: [DONE]');
    await closing;
    expect(scheduler.badLifecycles()).toEqual([]);
    gw.server.closeAllConnections();
    await new Promise<void>((resolve) => gw.server.close(() => { resolve(); }));
  });

  it('aborts requests still in flight when the grace period ends', async () => {
    const pool = new EndpointPool();
    pool.add({ address: up.address });
    const scheduler = new FakeScheduler(pool);
    const gw = await startGateway({ scheduler, endpoints: pool });
    const hanging = post(`${gw.url}/v1/chat/completions`, chat(), { 'x-test-behavior': 'hang' });
    await until(() => scheduler.decisions.length === 1);
    await gw.handler.close({ graceMs: 50 });
    const r = await hanging;
    expect(r.status).toBe(503);
    expect(r.headers['x-llm-d-request-dropped-reason']).toBe('rejected-shutting-down');
    expect(scheduler.decisions[0]?.outcomes).toHaveLength(1);
    gw.server.closeAllConnections();
    await new Promise<void>((resolve) => gw.server.close(() => { resolve(); }));
  });
});
