import { EndpointPool, SwitchyardError } from '@switchyard/core';
import { ExtProcStream } from '@switchyard/envoy';
import { beforeEach, describe, expect, it } from 'vitest';
import { CollectSink } from '../test-support/collect-sink.js';
import { FakeScheduler, type FakeSchedulerOptions } from '@switchyard/core/testing';
import { chunkOf, describeReplies, reqBody, reqHeaders, respBody, respHeaders, served, setHeaders } from '../test-support/wire-helpers.js';

const HEADERS = { ':method': 'POST', ':path': '/v1/chat/completions', 'content-type': 'application/json' };
const body = (model: string, stream = false): string => JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'hi' }] });

let pool: EndpointPool;
beforeEach(() => {
  pool = new EndpointPool();
  for (let i = 1; i <= 3; i++) pool.add({ address: `10.0.0.${i}:8000` });
});

async function scheduled(options: FakeSchedulerOptions = {}, model = 'client-model', stream = false) {
  const scheduler = new FakeScheduler(pool, options);
  const sink = new CollectSink();
  const s = new ExtProcStream(sink, { scheduler, pool });
  s.receive(reqHeaders(HEADERS));
  s.receive(reqBody(body(model, stream), true));
  await s.idle();
  sink.replies.length = 0;
  const record = scheduler.decisions[0]!;
  return { scheduler, sink, s, record };
}

describe('ExtProcStream response path', () => {
  it('streams a JSON body as it arrives, restores the model, reads usage, completes once', async () => {
    const { sink, s, record } = await scheduled({ rewrites: { 'client-model': 'target-model' } });
    const json = JSON.stringify({ id: 'x', model: 'target-model', choices: [], usage: { prompt_tokens: 7, completion_tokens: 10, total_tokens: 17, prompt_tokens_details: { cached_tokens: 4 } } });
    s.receive(respHeaders({ ':status': '200', 'content-type': 'application/json' }));
    s.receive(respBody(json.slice(0, 30), false));
    s.receive(respBody(json.slice(30), false));
    s.receive(respBody('', true));
    const restored = json.replace('"model":"target-model"', '"model":"client-model"');
    const replies = describeReplies(sink.replies);
    expect(replies[0]).toBe('response_headers');
    expect(replies.at(-1)).toMatch(/,eos\)$/);
    expect(sink.replies.slice(1).map((r) => chunkOf(r).body).join('')).toBe(restored);
    expect(record.usages).toEqual([{ promptTokens: 7, completionTokens: 10, cachedTokens: 4 }]);
    expect(record.outcomes).toEqual([{ kind: 'success', usage: { promptTokens: 7, completionTokens: 10, cachedTokens: 4 } }]);
    expect(record.starts).toHaveLength(1);
    expect(record.starts[0]!.status).toBe(200);
    expect(record.starts[0]!.endpoint.address).toBe('10.0.0.1:8000');
    s.end();
    expect(record.outcomes).toHaveLength(1);
  });

  it('passes invalid JSON through untouched', async () => {
    const { sink, s, record } = await scheduled();
    s.receive(respHeaders({ ':status': '200', 'content-type': 'application/json' }));
    s.receive(respBody('{not json', true));
    expect(chunkOf(sink.replies[1]!)).toEqual({ body: '{not json', eos: true });
    expect(record.outcomes).toEqual([{ kind: 'success' }]);
  });

  it('echoes SSE chunk for chunk, reads usage split across chunks, restores the model', async () => {
    const { sink, s, record } = await scheduled({ rewrites: { 'client-model': 'lora-a' } }, 'client-model', true);
    const chunks = [
      'data: {"model":"lora-a","choices":[{"delta":{"content":"hi"}}]}\n\n',
      'data: {"model":"lora-a","choices":[],"usage":{"prompt_tokens":7,"total_',
      'tokens":17,"completion_tokens":10}}\n\ndata: [DONE]\n\n',
    ];
    s.receive(respHeaders({ ':status': '200', 'content-type': 'text/event-stream' }, false, served('10.0.0.1:8000')));
    chunks.forEach((c) => { s.receive(respBody(c, false)); });
    expect(record.outcomes).toHaveLength(0);
    s.receive(respBody('', true));
    expect(describeReplies(sink.replies)).toEqual([
      'response_headers',
      `response_body(${chunks[0]!.length + 'client-model'.length - 'lora-a'.length})`,
      `response_body(${chunks[1]!.length + 'client-model'.length - 'lora-a'.length})`,
      `response_body(${chunks[2]!.length})`,
      'response_body(0,eos)',
    ]);
    expect(chunkOf(sink.replies[1]!).body).toContain('"model":"client-model"');
    expect(record.usages).toEqual([{ promptTokens: 7, completionTokens: 10 }]);
    expect(record.outcomes).toEqual([{ kind: 'success', usage: { promptTokens: 7, completionTokens: 10 } }]);
  });

  it("adds the decision's response headers to the response header reply", async () => {
    const { sink, s } = await scheduled({ responseHeaders: { 'x-session-token': 'tok' } });
    s.receive(respHeaders({ ':status': '200', 'content-type': 'application/json' }));
    expect(setHeaders(sink.replies[0]!.response_headers!.response.header_mutation)).toEqual({ 'x-session-token': 'tok' });
  });

  it('reports the served endpoint from envoy.lb metadata', async () => {
    const { s, record } = await scheduled({ fallbacks: 1 });
    s.receive(respHeaders({ ':status': '200', 'content-type': 'application/json' }, false, served('10.0.0.2:8000')));
    expect(record.starts[0]!.endpoint.address).toBe('10.0.0.2:8000');
  });

  it('counts a model-server error status as an error outcome', async () => {
    const { s, record } = await scheduled();
    s.receive(respHeaders({ ':status': '503', 'content-type': 'application/json' }));
    s.receive(respBody('{"error":"overloaded"}', true));
    expect(record.outcomes).toEqual([{ kind: 'error', status: 503 }]);
  });

  it('completes on response headers with end_of_stream', async () => {
    const { sink, s, record } = await scheduled();
    s.receive(respHeaders({ ':status': '204' }, true));
    expect(describeReplies(sink.replies)).toEqual(['response_headers']);
    expect(record.outcomes).toEqual([{ kind: 'success' }]);
  });

  it('flushes a buffered body without eos before answering response trailers', async () => {
    const { sink, s, record } = await scheduled();
    s.receive(respHeaders({ ':status': '200', 'content-type': 'application/json' }));
    s.receive(respBody('{"usage":{"prompt_tokens":1,"completion_tokens":2}}', false));
    s.receive({ response_trailers: { trailers: { headers: [] } } });
    expect(describeReplies(sink.replies)).toEqual(['response_headers', 'response_body(51)', 'response_trailers']);
    expect(record.outcomes).toEqual([{ kind: 'success', usage: { promptTokens: 1, completionTokens: 2 } }]);
  });

  it('passes non-JSON, non-SSE bodies through chunk for chunk', async () => {
    const { sink, s } = await scheduled();
    s.receive(respHeaders({ ':status': '200', 'content-type': 'text/plain' }));
    s.receive(respBody('abc', false));
    expect(describeReplies(sink.replies)).toEqual(['response_headers', 'response_body(3)']);
  });

  it('handles a response path without a request phase (GAIE hermetic shape)', () => {
    const sink = new CollectSink();
    const s = new ExtProcStream(sink, { scheduler: new FakeScheduler(pool), pool });
    s.receive(respHeaders({ ':status': '200', 'content-type': 'application/json' }));
    s.receive(respBody('{"a":', false));
    s.receive(respBody('1}', true));
    expect(describeReplies(sink.replies)).toEqual(['response_headers', 'response_body(5)', 'response_body(2,eos)']);
  });

  it('restores and reads usage of a JSON body larger than maxBodyBytes, holding none of it', async () => {
    const scheduler = new FakeScheduler(pool, { rewrites: { 'client-model': 'target-model' } });
    const sink = new CollectSink();
    const s = new ExtProcStream(sink, { scheduler, pool, maxBodyBytes: 1000 });
    s.receive(reqHeaders(HEADERS));
    s.receive(reqBody(body('client-model'), true));
    await s.idle();
    s.receive(respHeaders({ ':status': '200', 'content-type': 'application/json' }));
    s.receive(respBody('{"model":"target-model","text":"', false));
    s.receive(respBody('x'.repeat(600), false));
    s.receive(respBody('x'.repeat(600), false));
    s.receive(respBody('","usage":{"prompt_tokens":1,"completion_tokens":2}}', true));
    expect(describeReplies(sink.replies).slice(2)).toEqual(['response_headers', 'response_body(32)', 'response_body(600)', 'response_body(600)', 'response_body(52,eos)']);
    expect(chunkOf(sink.replies[3]!).body).toBe('{"model":"client-model","text":"');
    expect(scheduler.decisions[0]!.outcomes).toEqual([{ kind: 'success', usage: { promptTokens: 1, completionTokens: 2 } }]);
  });
});

describe('ExtProcStream lifecycle', () => {
  it('a cancel while queued aborts the pick, sends nothing, leaves nothing in flight', async () => {
    const scheduler = new FakeScheduler(pool, { gated: true });
    const sink = new CollectSink();
    const s = new ExtProcStream(sink, { scheduler, pool });
    s.receive(reqHeaders(HEADERS));
    s.receive(reqBody(body('m'), true));
    await Promise.resolve();
    expect(scheduler.waiting).toBe(1);
    s.cancel();
    await s.idle();
    expect(scheduler.waiting).toBe(0);
    expect(sink.replies).toHaveLength(0);
    expect(scheduler.decisions).toHaveLength(0);
  });

  it('messages arriving while scheduling are processed after the decision, in order', async () => {
    const scheduler = new FakeScheduler(pool, { gated: true });
    const sink = new CollectSink();
    const s = new ExtProcStream(sink, { scheduler, pool });
    s.receive(reqHeaders(HEADERS));
    s.receive(reqBody(body('m'), true));
    s.receive(respHeaders({ ':status': '200', 'content-type': 'application/json' }));
    scheduler.release();
    await s.idle();
    expect(describeReplies(sink.replies)).toEqual(['request_headers', expect.stringMatching(/^request_body/), 'response_headers']);
  });

  it('a cancel after the decision completes it as cancelled exactly once', async () => {
    const { s, record, scheduler } = await scheduled();
    expect(pool.get('10.0.0.1:8000')!.inFlightRequests).toBe(1);
    s.cancel();
    s.end();
    s.error(new Error('late'));
    expect(record.outcomes).toEqual([{ kind: 'cancelled' }]);
    expect(scheduler.active).toBe(0);
    expect(pool.get('10.0.0.1:8000')!.inFlightRequests).toBe(0);
  });

  it('a stream that ends before the response completes as an error', async () => {
    const { s, record } = await scheduled();
    s.receive(respHeaders({ ':status': '200', 'content-type': 'text/event-stream' }));
    s.end();
    expect(record.outcomes).toEqual([{ kind: 'error' }]);
  });

  it('shutdown answers a queued request 503 rejected-shutting-down', async () => {
    const scheduler = new FakeScheduler(pool, { gated: true });
    const sink = new CollectSink();
    const s = new ExtProcStream(sink, { scheduler, pool });
    s.receive(reqHeaders(HEADERS));
    s.receive(reqBody(body('m'), true));
    s.shutdown();
    await s.idle();
    expect(describeReplies(sink.replies)).toEqual(['immediate_response(503)']);
    expect(setHeaders(sink.replies[0]!.immediate_response!.headers)['x-llm-d-request-dropped-reason']).toBe('rejected-shutting-down');
  });

  it('revocation before the response answers 429 evicted and completes with an error', async () => {
    const { sink, record } = await scheduled();
    record.revoke.abort(new SwitchyardError('EVICTED', 'request evicted by flow control'));
    expect(describeReplies(sink.replies)).toEqual(['immediate_response(429)']);
    expect(setHeaders(sink.replies[0]!.immediate_response!.headers)['x-llm-d-request-dropped-reason']).toBe('evicted');
    expect(record.outcomes).toHaveLength(1);
    expect(record.outcomes[0]!.kind).toBe('error');
  });
});
