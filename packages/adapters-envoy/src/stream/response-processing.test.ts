import { EndpointPool, systemClock, type Clock } from '@switchyard/core';
import { FakeScheduler } from '@switchyard/core/testing';
import { ExtProcStream } from '@switchyard/envoy';
import { describe, expect, it } from 'vitest';
import { CollectSink } from '../test-support/collect-sink.js';
import { reqBody, reqHeaders, respBody, respHeaders } from '../test-support/wire-helpers.js';

/** A clock whose every reading is 1 ms after the previous one, plus what `wait` adds: handling takes time. */
function steppingClock(): Clock & { wait(ms: number): void } {
  let t = 0;
  return { now: () => ++t, setTimeout: systemClock.setTimeout, clearTimeout: systemClock.clearTimeout, wait: (ms) => { t += ms; } };
}

async function responding(stream: boolean) {
  const pool = new EndpointPool();
  pool.add({ address: '10.0.0.1:8000' });
  const scheduler = new FakeScheduler(pool);
  const clock = steppingClock();
  const s = new ExtProcStream(new CollectSink(), { scheduler, pool, clock });
  s.receive(reqHeaders({ ':method': 'POST', ':path': '/v1/chat/completions', 'content-type': 'application/json' }));
  s.receive(reqBody(JSON.stringify({ model: 'm', stream, messages: [{ role: 'user', content: 'hi' }] }), true));
  await s.idle();
  return { s, clock, record: scheduler.decisions[0]! };
}

describe("ext_proc response processing time (llm-d's response_processing_duration_seconds)", () => {
  it('of an SSE response is each chunk’s handling, not the waits between chunks', async () => {
    const { s, clock, record } = await responding(true);
    s.receive(respHeaders({ ':status': '200', 'content-type': 'text/event-stream' }));
    for (const [i, chunk] of ['data: {"choices":[]}\n\n', 'data: {"choices":[]}\n\n', 'data: [DONE]\n\n'].entries()) {
      clock.wait(100);
      s.receive(respBody(chunk, i === 2));
    }
    // One clock step per chunk handled; the 300 ms of waiting is not counted.
    expect(record.processing).toEqual([1, 1, 1]);
    expect(record.outcomes).toHaveLength(1);
  });

  it('of a JSON response is the response headers to the end of the body, reported before completion', async () => {
    const { s, clock, record } = await responding(false);
    s.receive(respHeaders({ ':status': '200', 'content-type': 'application/json' }));
    clock.wait(40);
    s.receive(respBody('{"choices":[],', false));
    clock.wait(60);
    s.receive(respBody('"usage":{"prompt_tokens":1,"completion_tokens":1}}', true));
    expect(record.processing).toHaveLength(1);
    expect(record.processing[0]).toBeGreaterThanOrEqual(100);
    expect(record.processing[0]).toBeLessThan(110);
    expect(record.outcomes).toHaveLength(1);
  });
});
