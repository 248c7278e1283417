/*
 * Load test: 200 concurrent ext_proc streams over one gRPC connection through the real picker
 * and a flow controller, with requests queued while the pool is saturated and random cancels at
 * every stage. Afterwards nothing may be left: no queued or granted flow-control items, no
 * in-flight counts on endpoints, no open streams.
 */
import * as grpc from '@grpc/grpc-js';
import { EndpointPicker, EndpointPool, ManualClock, seededRandom } from '@switchyard/core';
import { startEppServer } from '@switchyard/envoy';
import { createFlowController } from '@switchyard/flow-control';
import { describe, expect, it } from 'vitest';
import { TRANSPORTS } from '../test-support/transports.js';
import { EnvoyEmulator, type EmulatedStream } from '../test-support/envoy-client.js';
import { reqBody, reqHeaders, respBody, respHeaders } from '../test-support/wire-helpers.js';

const STREAMS = 200;


const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe.each(TRANSPORTS)('200 concurrent streams with random cancels, %s transport', (transport) => {
  it('leaks nothing', async () => {
    const clock = new ManualClock();
    const pool = new EndpointPool();
    const setLoad = (queue: number): void => {
      for (const e of pool.list()) {
        pool.setMetrics(e.id, {
          waitingQueueSize: queue, runningRequestsSize: 0, kvCacheUsagePercent: 0.1, activeModels: [], waitingModels: [],
          maxActiveModels: 0, cacheBlockSize: 16, cacheNumBlocks: 1000, updatedAt: clock.now(),
        });
      }
    };
    for (let i = 1; i <= 8; i++) pool.add({ address: `10.1.0.${i}:8000` });
    setLoad(50); // saturated: everything queues in flow control
    const flow = createFlowController({ pool, clock, metrics: false });
    const picker = new EndpointPicker({ pool, clock, admission: flow });
    const server = await startEppServer({ transport, scheduler: picker, pool, host: '127.0.0.1', port: 0 });
    const envoy = new EnvoyEmulator(server.port);
    const random = seededRandom(42);
    try {
      const streams: EmulatedStream[] = [];
      for (let i = 0; i < STREAMS; i++) {
        const s = envoy.open();
        s.send(reqHeaders({ ':method': 'POST', ':path': '/v1/chat/completions', 'x-request-id': `load-${i}` }));
        const body = JSON.stringify({ model: 'm', stream: i % 2 === 0, messages: [{ role: 'user', content: `prompt ${i} ${'x'.repeat(i * 7)}` }] });
        s.send(reqBody(body.slice(0, 20), false));
        s.send(reqBody(body.slice(20), true));
        streams.push(s);
      }
      for (let i = 0; i < 500 && flow.stats().queuedRequests < STREAMS; i++) await tick();
      expect(flow.stats().queuedRequests).toBe(STREAMS);
      expect(server.stats().schedulingStreams).toBe(STREAMS);

      // Cancel about a quarter while they wait in the queue.
      const live = new Set(streams);
      for (const s of streams) {
        if (random() < 0.25) {
          s.cancel();
          live.delete(s);
        }
      }
      // The proxy's cancels reach the server and take the requests out of the queue.
      for (let i = 0; i < 500 && flow.stats().queuedRequests > live.size; i++) await tick();
      expect(live.size).toBeLessThan(STREAMS);
      expect(flow.stats().queuedRequests).toBe(live.size);
      expect(server.stats().schedulingStreams).toBe(live.size);
      setLoad(0); // the pool frees up: queued requests dispatch

      let cancelledAfterDecision = 0;
      let completed = 0;
      for (let round = 0; round < 2000 && live.size > 0; round++) {
        await tick();
        for (const s of [...live]) {
          if (s.replies.length < 2) continue;
          live.delete(s);
          const r = random();
          if (r < 0.2) {
            s.cancel(); // after the decision, before any response
            cancelledAfterDecision++;
          } else if (r < 0.35) {
            s.send(respHeaders({ ':status': '200', 'content-type': 'text/event-stream' }));
            s.send(respBody('data: {"choices":[]}\n\n', false));
            s.cancel(); // mid-response
            cancelledAfterDecision++;
          } else {
            s.send(respHeaders({ ':status': '200', 'content-type': 'application/json' }));
            s.send(respBody('{"usage":{"prompt_tokens":3,"completion_tokens":5}}', true));
            s.halfClose();
            completed++;
          }
        }
      }
      expect(live.size).toBe(0);
      const ends = await Promise.all(streams.map((s) => s.ended));
      for (const end of ends) expect([grpc.status.OK, grpc.status.CANCELLED]).toContain(end.code);
      for (let i = 0; i < 500 && server.stats().activeStreams > 0; i++) await tick();

      expect(completed + cancelledAfterDecision).toBeGreaterThan(100);
      expect(server.stats()).toMatchObject({ activeStreams: 0, schedulingStreams: 0, failures: 0 });
      expect(server.stats().decisions).toBe(completed + cancelledAfterDecision);
      expect(flow.stats()).toMatchObject({ queuedRequests: 0, inFlightRequests: 0, expiringRequests: 0 });
      expect(pool.list().map((e) => e.inFlightRequests)).toEqual(Array<number>(8).fill(0));
    } finally {
      envoy.close();
      await server.close(1000);
      await flow.close();
    }
  });
});
