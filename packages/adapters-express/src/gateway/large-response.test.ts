import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { EndpointPool } from '@switchyard/core';
import { FakeScheduler } from '@switchyard/core/testing';
import { startGateway, type RunningGateway } from '../test-support/harness.js';

const MiB = 1 << 20;
const HEAD = Buffer.from('{"id":"x","model":"real-model","choices":[{"message":{"content":"');
const TAIL = Buffer.from('"}}],"usage":{"prompt_tokens":3,"completion_tokens":4}}');
const FILLER = Buffer.alloc(MiB, 0x61);

/** A model server answering one JSON completion of `x-size-mib` MiB, written with backpressure. */
function bigUpstream(): Server {
  return createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const mib = Number(req.headers['x-size-mib']);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(HEAD.length + mib * MiB + TAIL.length) });
      res.write(HEAD);
      let sent = 0;
      const more = (): void => {
        while (sent < mib) {
          sent++;
          if (!res.write(FILLER)) {
            res.once('drain', more);
            return;
          }
        }
        res.end(TAIL);
      };
      more();
    });
  });
}

const memory = (): number => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

/**
 * Rewritten non-streaming responses used to be buffered whole to restore the model name: 100 MB
 * peaked at ~6× its size, and 600 MB gave the client an empty 200. The name is now restored as
 * the bytes stream.
 */
describe('gateway: large rewritten JSON responses', () => {
  let upstream: Server;
  let gw: RunningGateway;
  let scheduler: FakeScheduler;

  beforeAll(async () => {
    upstream = bigUpstream();
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const pool = new EndpointPool();
    pool.add({ address: `127.0.0.1:${(upstream.address() as AddressInfo).port}` });
    scheduler = new FakeScheduler(pool, { rewrites: { 'alias-model': 'real-model' } });
    gw = await startGateway({ scheduler, endpoints: pool });
  });
  afterAll(async () => {
    await gw.close();
    upstream.closeAllConnections();
    await new Promise<void>((resolve) => upstream.close(() => { resolve(); }));
  });

  /** Streams the answer, counting bytes and keeping only its first and last bytes. */
  async function fetchBig(mib: number): Promise<{ status: number; bytes: number; head: string; tail: string; peakGrowth: number }> {
    const base = memory();
    let peak = base;
    const r = await request(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-size-mib': String(mib) },
      body: JSON.stringify({ model: 'alias-model', messages: [{ role: 'user', content: 'hi' }] }),
    });
    let bytes = 0;
    let head = '';
    let tail = Buffer.alloc(0);
    for await (const chunk of r.body as AsyncIterable<Buffer>) {
      if (head.length < 64) head += chunk.subarray(0, 64).toString('latin1');
      tail = Buffer.concat([tail, chunk.subarray(Math.max(0, chunk.length - 128))]).subarray(-128);
      bytes += chunk.length;
      const now = memory();
      if (now > peak) peak = now;
    }
    return { status: r.statusCode, bytes, head, tail: tail.toString('latin1'), peakGrowth: peak - base };
  }

  it('restores the model of a 100 MiB response without holding it (peak growth below its size)', async () => {
    const size = 100 * MiB;
    const r = await fetchBig(100);
    expect(r.status).toBe(200);
    expect(r.head.startsWith('{"id":"x","model":"alias-model","choices"')).toBe(true);
    expect(r.bytes).toBe(HEAD.length + size + TAIL.length + ('alias-model'.length - 'real-model'.length));
    expect(r.peakGrowth).toBeLessThan(size);
    expect(scheduler.decisions.at(-1)?.outcomes).toEqual([{ kind: 'success', usage: { promptTokens: 3, completionTokens: 4 } }]);
  }, 120_000);

  it('delivers a 600 MiB rewritten response whole, with its usage', async () => {
    const r = await fetchBig(600);
    expect(r.status).toBe(200);
    expect(r.bytes).toBe(HEAD.length + 600 * MiB + TAIL.length + 1);
    expect(r.tail.endsWith(TAIL.toString('latin1'))).toBe(true);
    expect(r.peakGrowth).toBeLessThan(600 * MiB);
    expect(scheduler.decisions.at(-1)?.outcomes).toEqual([{ kind: 'success', usage: { promptTokens: 3, completionTokens: 4 } }]);
  }, 240_000);
});
