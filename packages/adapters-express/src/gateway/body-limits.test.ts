import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EndpointPool, ManualClock } from '@switchyard/core';
import type { GatewayOptions } from '@switchyard/express';
import { FakeScheduler, waitFor } from '@switchyard/core/testing';
import { startFakeUpstream, type FakeUpstream } from '../test-support/fake-upstream.js';
import { get, startGateway, type RunningGateway } from '../test-support/harness.js';

/** A raw client connection: write pieces of a request, read the whole answer once the server closes. */
interface RawClient {
  write(bytes: string): void;
  readonly answer: Promise<string>;
}

function rawClient(url: string): RawClient {
  const u = new URL(url);
  const socket: Socket = connect(Number(u.port), u.hostname);
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  socket.on('error', () => undefined);
  const answer = new Promise<string>((resolve) => socket.once('close', () => { resolve(Buffer.concat(chunks).toString()); }));
  return { write: (bytes) => socket.write(bytes), answer };
}

const head = (length: number): string => `POST /v1/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\nconnection: close\r\n\r\n`;
/** A valid completion request of exactly `size` bytes. */
const bodyOf = (size: number): string => {
  const base = '{"model":"m","prompt":""}';
  return `{"model":"m","prompt":"${'p'.repeat(size - base.length)}"}`;
};

describe('gateway: request body deadlines and the buffered-bytes cap', () => {
  let up: FakeUpstream;
  const open: RunningGateway[] = [];
  let clock: ManualClock;

  beforeAll(async () => {
    up = await startFakeUpstream('live');
  });
  afterAll(async () => {
    for (const g of open) await g.close();
    await up.close();
  });

  async function gateway(extra: Partial<GatewayOptions>): Promise<RunningGateway> {
    clock = new ManualClock();
    const pool = new EndpointPool();
    pool.add({ address: up.address });
    const gw = await startGateway({ scheduler: new FakeScheduler(pool), endpoints: pool, clock, ...extra });
    open.push(gw);
    return gw;
  }

  /** Waits until the gateway reports `bytes` request-body bytes buffered. */
  async function buffered(gw: RunningGateway, bytes: number): Promise<void> {
    const wanted = new RegExp(`switchyard_gateway_request_body_buffered_bytes ${bytes}\\b`);
    await waitFor(async () => wanted.test((await get(`${gw.url}/metrics`)).text), { what: `the gateway reporting ${bytes} buffered body bytes` });
  }

  it('answers 408 to a body that stalls past bodyIdleTimeoutMs, and frees its bytes', async () => {
    const gw = await gateway({ bodyIdleTimeoutMs: 1000, bodyReadTimeoutMs: 60_000 });
    const c = rawClient(gw.url);
    c.write(head(100) + '{"model":"m",');
    await buffered(gw, 13);
    clock.advance(999);
    clock.advance(200);
    const answer = await c.answer;
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(answer).toMatch(/bodyIdleTimeoutMs \(1000\)/);
    await buffered(gw, 0);
    expect((await get(`${gw.url}/metrics`)).text).toMatch(/switchyard_gateway_requests_total\{route="inference",code="408"\} 1/);
  });

  it('answers 408 to a trickle that keeps the connection busy past bodyReadTimeoutMs', async () => {
    const gw = await gateway({ bodyIdleTimeoutMs: 1000, bodyReadTimeoutMs: 5000 });
    const c = rawClient(gw.url);
    c.write(head(100));
    let sent = 0;
    const settled = c.answer.then((a) => a);
    let answer: string | undefined;
    void settled.then((a) => { answer = a; });
    for (let i = 0; i < 12 && answer === undefined; i++) {
      c.write('{');
      sent++;
      await buffered(gw, sent);
      clock.advance(600);
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(await settled).toMatch(/^HTTP\/1\.1 408[\s\S]*bodyReadTimeoutMs \(5000\)/);
    expect(sent).toBeLessThan(12);
  });

  it('answers 503 with a dropped reason once bodies being read would exceed maxBufferedBodyBytes; others complete', async () => {
    const gw = await gateway({ maxBodyBytes: 800, maxBufferedBodyBytes: 1000 });
    const a = rawClient(gw.url);
    const aBody = bodyOf(800);
    a.write(head(800) + aBody.slice(0, 700));
    await buffered(gw, 700);
    const b = rawClient(gw.url);
    b.write(head(800) + bodyOf(800).slice(0, 500));
    const refused = await b.answer;
    expect(refused).toMatch(/^HTTP\/1\.1 503/);
    expect(refused).toMatch(/x-llm-d-request-dropped-reason: rejected-saturated/i);
    expect(refused).toMatch(/maxBufferedBodyBytes \(1000\)/);
    expect(refused).toMatch(/retry-after: 1\r\n/i);
    await buffered(gw, 700);
    a.write(aBody.slice(700));
    expect(await a.answer).toMatch(/^HTTP\/1\.1 200[\s\S]*Hello from live/);
    await buffered(gw, 0);
  });
});
