import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EndpointPool, ManualClock } from '@switchyard/core';
import { FakeScheduler, waitFor } from '@switchyard/core/testing';
import { startFakeUpstream, type FakeUpstream } from '../test-support/fake-upstream.js';
import { get, post, startGateway, type RunningGateway } from '../test-support/harness.js';

const chat = { model: 'm1', messages: [{ role: 'user', content: 'hi' }] };

describe('gateway: one upstream deadline per request', () => {
  let up: FakeUpstream;
  let gw: RunningGateway;
  let scheduler: FakeScheduler;
  const clock = new ManualClock();

  beforeAll(async () => {
    up = await startFakeUpstream('hung');
    const pool = new EndpointPool();
    pool.add({ address: up.address });
    scheduler = new FakeScheduler(pool);
    // One connection: the second and third requests queue behind the hung first one. undici's own
    // head timeout (real time) is far away; only the gateway's deadline (clock time) can fire.
    gw = await startGateway({ scheduler, endpoints: pool, clock, upstream: { connectionsPerEndpoint: 1, headersTimeoutMs: 60_000 } });
  });
  afterAll(async () => {
    await gw.close();
    await up.close();
  });

  it('answers every request 504 at its deadline, queued for a connection or waiting for the head', async () => {
    const answers = [1, 2, 3].map(() => post(`${gw.url}/v1/chat/completions`, chat, { 'x-test-behavior': 'hang' }));
    await waitFor(async () => /switchyard_gateway_in_flight_requests\{pool="default"\} 3/.test((await get(`${gw.url}/metrics`)).text), { what: 'three requests in flight' });
    expect(up.open).toBe(1);
    clock.advance(59_999);
    clock.advance(2);
    const results = await Promise.all(answers);
    expect(results.map((r) => r.status)).toEqual([504, 504, 504]);
    expect(results[2]?.json()).toMatchObject({ error: { code: 'upstream_timeout' } });
    expect(results[2]?.text).toMatch(/upstream\.headersTimeoutMs \(60000\)/);
    expect(scheduler.badLifecycles()).toEqual([]);
    expect(scheduler.decisions.map((d) => d.outcomes.map((o) => [o.kind, o.kind === 'error' ? o.status : undefined]))).toEqual([0, 1, 2].map(() => [['error', 504]]));
  });
});
