import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as undiciRequest } from 'undici';
import OpenAI from 'openai';
import { EndpointPool, SwitchyardError } from '@switchyard/core';
import { EndpointRotation } from '@switchyard/express';
import { FakeScheduler, waitFor } from '@switchyard/core/testing';
import { startFakeUpstream, type FakeUpstream } from '../test-support/fake-upstream.js';
import { deadAddress, get, post, startGateway, type RunningGateway } from '../test-support/harness.js';

const chat = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ model: 'm1', messages: [{ role: 'user', content: 'hi' }], ...extra });
const until = (cond: () => boolean | Promise<boolean>, what: string): Promise<true> => waitFor(cond, { what }) as Promise<true>;

describe('gateway faults', () => {
  let up: FakeUpstream;
  let dead: string;
  const gateways: RunningGateway[] = [];

  beforeAll(async () => {
    up = await startFakeUpstream('live');
    dead = await deadAddress();
  });
  afterAll(async () => {
    for (const g of gateways) await g.close();
    await up.close();
  });

  async function gateway(addresses: string[], extra: Partial<Parameters<typeof startGateway>[0]> = {}): Promise<{ gw: RunningGateway; scheduler: FakeScheduler; pool: EndpointPool }> {
    const pool = new EndpointPool();
    for (const a of addresses) pool.add({ address: a });
    const scheduler = new FakeScheduler(pool, { fallbacks: 2 });
    const gw = await startGateway({ scheduler, endpoints: pool, ...extra });
    gateways.push(gw);
    return { gw, scheduler, pool };
  }

  it('retries a refused connection on the next fallback before any byte reached the client', async () => {
    const { gw, scheduler } = await gateway([dead, up.address]);
    const r1 = await post(`${gw.url}/v1/chat/completions`, chat());
    const r2 = await post(`${gw.url}/v1/chat/completions`, chat());
    expect([r1.status, r2.status]).toEqual([200, 200]);
    expect(r1.headers['x-gateway-destination-endpoint-served']).toBe(up.address);
    expect(scheduler.decisions[0]?.starts.map((s) => s.endpoint.address)).toEqual([up.address]);
    expect(scheduler.badLifecycles()).toEqual([]);
    const m = (await get(`${gw.url}/metrics`)).text;
    expect(m).toMatch(/switchyard_gateway_retries_total\{pool="default"\} 1/);
    expect(m).toMatch(/switchyard_gateway_upstream_attempts_total\{pool="default",result="connect"\} 1/);
  });

  it('answers 502 with the error contract when every attempt fails', async () => {
    const { gw, scheduler } = await gateway([dead]);
    const r = await post(`${gw.url}/v1/chat/completions`, chat());
    expect(r.status).toBe(502);
    expect(r.json()).toMatchObject({ error: { code: 'upstream_unavailable', type: 'server_error' } });
    expect(scheduler.decisions[0]?.outcomes).toMatchObject([{ kind: 'error', status: 502 }]);
  });

  it('retries a reset before the response head, bounded by maxAttempts', async () => {
    const other = await startFakeUpstream('other');
    try {
      const { gw } = await gateway([up.address, other.address], { upstream: { maxAttempts: 2 } });
      const before = up.received.length + other.received.length;
      const r = await post(`${gw.url}/v1/chat/completions`, chat(), { 'x-test-behavior': 'reset' });
      expect(r.status).toBe(502);
      expect(up.received.length + other.received.length - before).toBe(2);
    } finally {
      await other.close();
    }
  });

  it('answers 504 when the upstream sends no response head in time', async () => {
    const { gw, scheduler } = await gateway([up.address], { upstream: { headersTimeoutMs: 150 } });
    const r = await post(`${gw.url}/v1/chat/completions`, chat(), { 'x-test-behavior': 'hang' });
    expect(r.status).toBe(504);
    expect(r.json()).toMatchObject({ error: { code: 'upstream_timeout' } });
    expect(scheduler.badLifecycles()).toEqual([]);
  });

  it('turns an upstream death mid-stream into an SSE error the openai client raises', async () => {
    const { gw, scheduler } = await gateway([up.address]);
    const raw = await post(`${gw.url}/v1/chat/completions`, chat({ stream: true }), { 'x-test-behavior': 'die-mid-stream' });
    expect(raw.status).toBe(200);
    expect(raw.text).toContain('Hello');
    expect(raw.text).toContain('"code":"upstream_unavailable"');
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'none', maxRetries: 0, defaultHeaders: { 'x-test-behavior': 'die-mid-stream' } });
    const stream = await client.chat.completions.create({ model: 'm1', messages: [{ role: 'user', content: 'hi' }], stream: true });
    await expect(async () => {
      for await (const _ of stream) {
        /* drain */
      }
    }).rejects.toThrow(/UPSTREAM_UNAVAILABLE/);
    expect(scheduler.decisions.map((d) => d.outcomes[0]?.kind)).toEqual(['error', 'error']);
    expect(scheduler.badLifecycles()).toEqual([]);
  });

  it('aborts the upstream request and frees the slot when the client leaves mid-stream', async () => {
    const { gw, scheduler, pool } = await gateway([up.address]);
    const abortedBefore = up.abortedByClient;
    const ac = new AbortController();
    const r = await undiciRequest(`${gw.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify(chat({ stream: true })), headers: { 'x-test-behavior': 'slow-stream' }, signal: ac.signal });
    const it = r.body[Symbol.asyncIterator]();
    await it.next();
    ac.abort();
    await until(() => scheduler.decisions[0]?.outcomes.length === 1, 'completion');
    expect(scheduler.decisions[0]?.outcomes).toEqual([{ kind: 'cancelled' }]);
    await until(() => up.abortedByClient > abortedBefore, 'upstream abort');
    expect(pool.list()[0]?.inFlightRequests).toBe(0);
    const m = (await get(`${gw.url}/metrics`)).text;
    expect(m).toMatch(/switchyard_gateway_client_aborts_total\{stage="upstream"\} 1/);
    expect(m).toMatch(/switchyard_gateway_in_flight_requests\{pool="default"\} 0/);
  });

  it('relays a large body intact to a slow reader (backpressure, no loss)', async () => {
    const { gw } = await gateway([up.address]);
    const url = new URL(`${gw.url}/v1/chat/completions`);
    const body = await new Promise<string>((resolve, reject) => {
      const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'x-test-behavior': 'big', 'content-type': 'application/json' } }, (res) => {
        res.pause();
        const parts: Buffer[] = [];
        setTimeout(() => {
          res.on('data', (c: Buffer) => parts.push(c));
          res.on('end', () => { resolve(Buffer.concat(parts).toString('utf8')); });
          res.resume();
        }, 150);
      });
      req.on('error', reject);
      req.end(JSON.stringify(chat()));
    });
    const parsed = JSON.parse(body) as { choices: { message: { content: string } }[] };
    expect(parsed.choices[0]?.message.content.length).toBe(1 << 20);
  });

  it('serves a client that trickles its body, and forgets one that leaves mid-body', async () => {
    const { gw, scheduler } = await gateway([up.address]);
    const url = new URL(gw.url);
    const body = JSON.stringify(chat());
    const send = async (pieces: number, leave: boolean): Promise<string> => {
      const socket = connect(Number(url.port), url.hostname);
      const chunks: Buffer[] = [];
      socket.on('data', (c: Buffer) => chunks.push(c));
      const closed = new Promise<void>((resolve) => socket.once('close', () => { resolve(); }));
      socket.write(`POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n`);
      const size = Math.ceil(body.length / pieces);
      for (let i = 0; i < pieces; i++) {
        if (leave && i === pieces - 1) {
          socket.destroy();
          break;
        }
        socket.write(body.slice(i * size, (i + 1) * size));
        await new Promise((r) => setTimeout(r, 15));
      }
      await closed;
      return Buffer.concat(chunks).toString();
    };
    expect(await send(8, false)).toMatch(/^HTTP\/1\.1 200[\s\S]*Hello from live/);
    const before = scheduler.decisions.length;
    expect(await send(8, true)).toBe('');
    await until(async () => /switchyard_gateway_client_aborts_total\{stage="body"\} 1/.test((await get(`${gw.url}/metrics`)).text), 'body abort metric');
    expect(scheduler.decisions.length).toBe(before);
  });

  it('fails open to a ready endpoint when configured, with a metric', async () => {
    const { gw, scheduler } = await gateway([up.address], { failureMode: 'FailOpen' });
    scheduler.behavior = () => 'throw';
    const r = await post(`${gw.url}/v1/chat/completions`, chat());
    expect(r.status).toBe(200);
    expect(r.headers['x-gateway-destination-endpoint-served']).toBe(up.address);
    expect((await get(`${gw.url}/metrics`)).text).toMatch(/switchyard_gateway_picker_failures_total\{pool="default",mode="fail_open"\} 1/);
  });

  it('answers an eviction before the head with 429 evicted', async () => {
    const { gw, scheduler } = await gateway([up.address]);
    const pending = post(`${gw.url}/v1/chat/completions`, chat(), { 'x-test-behavior': 'hang' });
    await until(() => scheduler.decisions.length === 1 && up.open > 0, 'dispatch');
    scheduler.decisions[0]?.revoke.abort(new SwitchyardError('EVICTED', 'request evicted by flow control'));
    const r = await pending;
    expect(r.status).toBe(429);
    expect(r.headers['x-llm-d-request-dropped-reason']).toBe('evicted');
    expect(scheduler.decisions[0]?.outcomes).toHaveLength(1);
  });

  it('takes an endpoint that keeps failing out of rotation', async () => {
    const source = new EndpointPool();
    source.add({ address: dead });
    source.add({ address: up.address });
    const rotation = new EndpointRotation({ source, failureThreshold: 2, probeAfterMs: 0 });
    const scheduler = new FakeScheduler(rotation.pool);
    const gw = await startGateway({ scheduler, endpoints: rotation.pool, rotation });
    gateways.push(gw);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await post(`${gw.url}/v1/chat/completions`, chat())).status);
    expect(rotation.isOut(dead)).toBe(true);
    expect(rotation.pool.list().map((e) => e.address)).toEqual([up.address]);
    // Only the first two picks of the dead endpoint failed; afterwards it is no longer a candidate.
    expect(statuses.filter((s) => s === 502)).toHaveLength(2);
    expect(statuses.slice(-2)).toEqual([200, 200]);
    const m = (await get(`${gw.url}/metrics`)).text;
    expect(m).toMatch(/switchyard_gateway_endpoints_out_of_rotation\{pool="default"\} 1/);
    rotation.close();
  });
});
