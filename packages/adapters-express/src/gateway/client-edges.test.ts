import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EndpointPool } from '@switchyard/core';
import { FakeScheduler } from '@switchyard/core/testing';
import { startFakeUpstream, type FakeUpstream } from '../test-support/fake-upstream.js';
import { post, startGateway, type RunningGateway } from '../test-support/harness.js';

/** Sends raw bytes on a fresh connection, optionally half-closing after them; resolves with all bytes read until the server closes. */
async function raw(url: string, bytes: string, halfClose: boolean): Promise<string> {
  const u = new URL(url);
  const socket = connect({ port: Number(u.port), host: u.hostname, allowHalfOpen: true });
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  // Half-open on our side too: finish once the server has ended its side.
  socket.on('end', () => socket.end());
  const closed = new Promise<void>((resolve) => socket.once('close', () => { resolve(); }));
  socket.write(bytes);
  if (halfClose) socket.end();
  await closed;
  return Buffer.concat(chunks).toString();
}

describe('gateway: client edge cases', () => {
  let up: FakeUpstream;
  let gw: RunningGateway;

  beforeAll(async () => {
    up = await startFakeUpstream('live');
    const pool = new EndpointPool();
    pool.add({ address: up.address });
    gw = await startGateway({ scheduler: new FakeScheduler(pool), endpoints: pool });
  });
  afterAll(async () => {
    await gw.close();
    await up.close();
  });

  it('answers a client that half-closes right after a complete request', async () => {
    const body = JSON.stringify({ model: 'm1', messages: [{ role: 'user', content: 'hi' }] });
    const answer = await raw(gw.url, `POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`, true);
    expect(answer).toMatch(/^HTTP\/1\.1 200[\s\S]*Hello from live/);
  });

  it('answers an empty POST with 400 naming the missing model, without forwarding it', async () => {
    const before = up.received.length;
    const r = await post(`${gw.url}/v1/chat/completions`, '');
    expect(r.status).toBe(400);
    expect(r.text).toMatch(/model/);
    const noType = await raw(gw.url, 'POST /v1/completions HTTP/1.1\r\nhost: x\r\ncontent-length: 0\r\nconnection: close\r\n\r\n', false);
    expect(noType).toMatch(/^HTTP\/1\.1 400/);
    expect(up.received.length).toBe(before);
  });
});
