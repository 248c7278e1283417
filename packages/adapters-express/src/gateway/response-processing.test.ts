import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EndpointPool, systemClock, type Clock } from '@switchyard/core';
import { FakeScheduler } from '@switchyard/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../test-support/harness.js';

/** A clock whose every reading is 1 ms after the previous one, plus what `wait` adds: handling takes time. */
function steppingClock(): Clock & { wait(ms: number): void } {
  let t = 0;
  return { now: () => ++t, setTimeout: systemClock.setTimeout, clearTimeout: systemClock.clearTimeout, wait: (ms) => { t += ms; } };
}

const clock = steppingClock();
const SSE = ['data: {"choices":[]}\n\n', 'data: {"choices":[]}\n\n', 'data: [DONE]\n\n'];

/**
 * Opened by the JSON test once its client has the response head, which the gateway forwards only
 * after reading the head's time: the JSON body's 100 ms then falls after that reading, however
 * the sockets are scheduled.
 */
let headSeen: () => void = () => undefined;

/**
 * A model server that "waits" 100 ms of the gateway's clock before each body chunk, and lets each
 * chunk reach the gateway alone; a JSON body's second chunk waits for `headSeen`.
 */
function upstreamServer(): Server {
  return createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const sse = req.headers['x-sse'] === '1';
      res.writeHead(200, { 'content-type': sse ? 'text/event-stream' : 'application/json' });
      if (!sse) {
        const gate = new Promise<void>((resolve) => { headSeen = resolve; });
        res.write('{"choices":[],', () => {
          void gate.then(() => {
            clock.wait(100);
            res.end('"usage":{"prompt_tokens":1,"completion_tokens":1}}');
          });
        });
        return;
      }
      const chunks = [...SSE];
      const next = (): void => {
        const c = chunks.shift();
        if (c === undefined) {
          res.end();
          return;
        }
        clock.wait(100);
        res.write(c, () => setTimeout(next, 5));
      };
      next();
    });
  });
}

describe("gateway response processing time (llm-d's response_processing_duration_seconds)", () => {
  let upstream: Server;
  let gw: RunningGateway;
  let scheduler: FakeScheduler;

  beforeAll(async () => {
    upstream = upstreamServer();
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const pool = new EndpointPool();
    pool.add({ address: `127.0.0.1:${(upstream.address() as AddressInfo).port}` });
    scheduler = new FakeScheduler(pool);
    gw = await startGateway({ scheduler, endpoints: pool, clock });
  });

  afterAll(async () => {
    await gw.close();
    await new Promise<void>((resolve) => upstream.close(() => { resolve(); }));
  });

  async function send(sse: boolean): Promise<number[]> {
    const before = scheduler.decisions.length;
    const res = await fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-sse': sse ? '1' : '0' }, body: JSON.stringify({ model: 'm', stream: sse, messages: [{ role: 'user', content: 'hi' }] }) });
    headSeen();
    await res.text();
    const record = scheduler.decisions[before]!;
    expect(record.outcomes).toHaveLength(1);
    return record.processing;
  }

  it('of an SSE response is each chunk’s handling and the end, not the waits between chunks', async () => {
    const processing = await send(true);
    // A clock step per chunk relayed (3 or more chunks, as the sockets cut them) and one for the end; no 100 ms wait.
    expect(processing.length).toBeGreaterThanOrEqual(SSE.length + 1);
    expect(processing.every((ms) => ms === 1)).toBe(true);
  });

  it('of a JSON response is the response head to the end of the body', async () => {
    const processing = await send(false);
    expect(processing).toHaveLength(1);
    // The 100 ms before the second chunk, which is sent only once the head has reached the client.
    expect(processing[0]).toBeGreaterThanOrEqual(100);
    expect(processing[0]).toBeLessThan(250);
  });
});
