import { EndpointPool, SwitchyardError } from '@switchyard/core';
import { ExtProcStream, type ExtProcStreamOptions } from '@switchyard/envoy';
import { beforeEach, describe, expect, it } from 'vitest';
import { CollectSink } from '../test-support/collect-sink.js';
import { FakeScheduler, type FakeSchedulerOptions } from '@switchyard/core/testing';
import { chunkOf, describeReplies, reqBody, reqHeaders, setHeaders, subsetHint } from '../test-support/wire-helpers.js';

const BODY = '{"max_tokens":100,"model":"my-model","prompt":"hello","temperature":0}';
const HEADERS = { ':method': 'POST', ':path': '/v1/completions', ':authority': 'gw', 'content-type': 'application/json', hi: 'mom', 'x-request-id': 'test-request-id' };

let pool: EndpointPool;

beforeEach(() => {
  pool = new EndpointPool();
  for (let i = 1; i <= 3; i++) pool.add({ address: `192.168.1.${i}:8000` });
});

function setup(schedulerOptions: FakeSchedulerOptions = {}, streamOptions: Partial<ExtProcStreamOptions> = {}) {
  const scheduler = new FakeScheduler(pool, schedulerOptions);
  const sink = new CollectSink();
  const stream = new ExtProcStream(sink, { scheduler, pool, ...streamOptions });
  return { scheduler, sink, stream };
}

describe('ExtProcStream request path', () => {
  it.each([
    [{}, false],
    [{ trustClassificationHeaders: true }, true],
    [{ trustHeaders: true }, true],
  ] as const)('hands the trust switch %j to the picker as %s (the library default: not trusted)', async (options, trusted) => {
    const { stream, scheduler } = setup({}, options);
    stream.receive(reqHeaders(HEADERS));
    stream.receive(reqBody(BODY, true));
    await stream.idle();
    expect(scheduler.decisions[0]?.options?.trustClassificationHeaders).toBe(trusted);
  });

  it('answers a split body with exactly one header reply and one body reply', async () => {
    const { sink, stream, scheduler } = setup();
    stream.receive(reqHeaders(HEADERS));
    stream.receive(reqBody(BODY.slice(0, 20), false));
    stream.receive(reqBody(BODY.slice(20), true));
    await stream.idle();
    expect(describeReplies(sink.replies)).toEqual(['request_headers', `request_body(${BODY.length},eos)`]);
    const head = sink.replies[0]!.request_headers!.response;
    expect(head.clear_route_cache).toBe(true);
    expect(setHeaders(head.header_mutation)).toEqual({
      'x-gateway-destination-endpoint': '192.168.1.1:8000',
      'content-length': String(BODY.length),
      'content-type': 'application/json',
      hi: 'mom',
      'x-request-id': 'test-request-id',
    });
    expect(sink.replies[0]!.dynamic_metadata).toEqual({
      fields: { 'envoy.lb': { structValue: { fields: { 'x-gateway-destination-endpoint': { stringValue: '192.168.1.1:8000' } } } } },
    });
    expect(chunkOf(sink.replies[1]!).body).toBe(BODY);
    expect(scheduler.decisions).toHaveLength(1);
    expect(scheduler.decisions[0]!.request.model).toBe('my-model');
    expect(sink.closed).toBe(0);
  });

  it('re-chunks a large body into ≤ 62,000-byte chunks with eos only on the last', async () => {
    const { sink, stream } = setup();
    const prompt = 'x'.repeat(150_000);
    const body = JSON.stringify({ model: 'my-model', prompt });
    stream.receive(reqHeaders(HEADERS));
    for (let i = 0; i < body.length; i += 10_000) stream.receive(reqBody(body.slice(i, i + 10_000), i + 10_000 >= body.length));
    await stream.idle();
    expect(describeReplies(sink.replies)).toEqual(['request_headers', 'request_body(62000)', 'request_body(62000)', `request_body(${body.length - 124_000},eos)`]);
    expect(sink.replies.slice(1).map((r) => chunkOf(r).body).join('')).toBe(body);
  });

  it('lists fallbacks after the primary in both the header and the metadata', async () => {
    const { sink, stream } = setup({ fallbacks: 2 });
    stream.receive(reqHeaders(HEADERS));
    stream.receive(reqBody(BODY, true));
    await stream.idle();
    const dest = '192.168.1.1:8000,192.168.1.2:8000,192.168.1.3:8000';
    expect(setHeaders(sink.replies[0]!.request_headers!.response.header_mutation)['x-gateway-destination-endpoint']).toBe(dest);
    expect(sink.replies[0]!.dynamic_metadata?.fields?.['envoy.lb']?.structValue?.fields?.['x-gateway-destination-endpoint']?.stringValue).toBe(dest);
  });

  it('strips client control headers, adds a request id, and can skip echoing', async () => {
    const { sink, stream } = setup({ headers: { 'x-session-token': 'abc' } }, { echoHeaders: false });
    stream.receive(reqHeaders({ ':path': '/v1/completions', 'x-gateway-destination-endpoint': '6.6.6.6:1', 'x-llm-d-inference-objective': 'x', hi: 'mom' }));
    stream.receive(reqBody(BODY, true));
    await stream.idle();
    const mutation = sink.replies[0]!.request_headers!.response.header_mutation;
    const set = setHeaders(mutation);
    expect(set['x-gateway-destination-endpoint']).toBe('192.168.1.1:8000');
    expect(set['x-session-token']).toBe('abc');
    expect(set['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(set.hi).toBeUndefined();
    expect(mutation?.remove_headers).toEqual(['x-llm-d-inference-objective']);
  });

  it('removes (never echoes) x-llm-d-*, x-gateway-* and sidecar-trusted headers from the client', async () => {
    const { sink, stream } = setup();
    const spoofed = { 'x-prefiller-url': 'http://169.254.169.254/', 'x-gateway-destination-endpoint-subset': '6.6.6.6:1', 'x-gateway-destination-endpoint-scores': '{}', 'x-llm-d-routing-hint': 'x' };
    stream.receive(reqHeaders({ ':path': '/v1/completions', ...spoofed, hi: 'mom' }));
    stream.receive(reqBody(BODY, true));
    await stream.idle();
    const mutation = sink.replies[0]!.request_headers!.response.header_mutation;
    const set = setHeaders(mutation);
    expect(set.hi).toBe('mom');
    for (const name of Object.keys(spoofed)) expect(set[name]).toBeUndefined();
    expect([...(mutation?.remove_headers ?? [])].sort()).toEqual(Object.keys(spoofed).sort());
  });

  it('rewrites the model and sets Content-Length of the rewritten body', async () => {
    const { sink, stream } = setup({ rewrites: { 'my-model': 'my-model-12345' } });
    stream.receive(reqHeaders(HEADERS));
    stream.receive(reqBody(BODY, true));
    await stream.idle();
    const forwarded = chunkOf(sink.replies[1]!).body;
    expect(JSON.parse(forwarded)).toMatchObject({ model: 'my-model-12345' });
    expect(setHeaders(sink.replies[0]!.request_headers!.response.header_mutation)['content-length']).toBe(String(Buffer.byteLength(forwarded)));
  });

  it('ends the body at trailers: chunks without eos, then a trailers reply', async () => {
    const { sink, stream } = setup();
    stream.receive(reqHeaders(HEADERS));
    stream.receive(reqBody(BODY, false));
    stream.receive({ request_trailers: { trailers: { headers: [] } } });
    await stream.idle();
    expect(describeReplies(sink.replies)).toEqual(['request_headers', `request_body(${BODY.length})`, 'request_trailers']);
  });

  it('routes a header-only request to a pool endpoint without scheduling', () => {
    const { sink, stream, scheduler } = setup();
    stream.receive(reqHeaders({ ':method': 'GET', ':path': '/v1/models' }, true, subsetHint(['192.168.1.3:8000'])));
    expect(describeReplies(sink.replies)).toEqual(['request_headers']);
    const set = setHeaders(sink.replies[0]!.request_headers!.response.header_mutation);
    expect(set['x-gateway-destination-endpoint']).toBe('192.168.1.3:8000');
    expect(set['content-length']).toBeUndefined();
    expect(scheduler.decisions).toHaveLength(0);
  });

  it('answers a header-only request 503 when the pool is empty', () => {
    pool.replaceAll([]);
    const { sink, stream } = setup();
    stream.receive(reqHeaders({ ':method': 'GET', ':path': '/v1/models' }, true));
    expect(describeReplies(sink.replies)).toEqual(['immediate_response(503)']);
    expect(setHeaders(sink.replies[0]!.immediate_response!.headers)['x-llm-d-request-dropped-reason']).toBe('rejected-no-endpoints');
    expect(sink.closed).toBe(1);
  });
});

describe('ExtProcStream errors', () => {
  async function rejectWith(body: string, schedulerOptions: FakeSchedulerOptions = {}, meta?: ReturnType<typeof subsetHint>) {
    const { sink, stream } = setup(schedulerOptions);
    stream.receive(reqHeaders(HEADERS, false, meta));
    stream.receive(reqBody(body, true));
    await stream.idle();
    expect(sink.replies).toHaveLength(1);
    expect(sink.closed).toBe(1);
    const imm = sink.replies[0]!.immediate_response!;
    return { status: imm.status.code, headers: setHeaders(imm.headers), body: Buffer.from(imm.body ?? []).toString(), details: imm.details };
  }

  it('bad JSON → 400', async () => {
    const r = await rejectWith('no healthy upstream');
    expect(r.status).toBe(400);
    expect(r.headers['x-llm-d-request-dropped-reason']).toBeUndefined();
    expect((JSON.parse(r.body) as { error: { message: string } }).error.message).toMatch(/^inference error: BAD_REQUEST - /);
    expect(r.details).toBe('switchyard_bad_request');
  });

  it('no model → 400', async () => {
    expect((await rejectWith('{"prompt":"hello world"}')).status).toBe(400);
  });

  it('no endpoints → 503 rejected-no-endpoints', async () => {
    pool.replaceAll([]);
    const r = await rejectWith(BODY);
    expect(r.status).toBe(503);
    expect(r.headers['x-llm-d-request-dropped-reason']).toBe('rejected-no-endpoints');
  });

  it('an empty subset hint → 503, a hint matching nothing → 503', async () => {
    expect((await rejectWith(BODY, {}, subsetHint([]))).status).toBe(503);
    expect((await rejectWith(BODY, {}, subsetHint(['192.168.1.99:8000']))).status).toBe(503);
  });

  it('saturation → 429 rejected-saturated', async () => {
    const r = await rejectWith(BODY, { error: new SwitchyardError('REJECTED_SATURATED', 'pool saturated') });
    expect(r.status).toBe(429);
    expect(r.headers['x-llm-d-request-dropped-reason']).toBe('rejected-saturated');
  });

  it('a body over the limit → 413 before it is all received', () => {
    const { sink, stream } = setup({}, { maxBodyBytes: 100 });
    stream.receive(reqHeaders(HEADERS));
    stream.receive(reqBody('x'.repeat(101), false));
    stream.receive(reqBody('x', true));
    expect(describeReplies(sink.replies)).toEqual(['immediate_response(413)']);
  });

  it('a failure outside the contract fails the gRPC stream (the proxy failure mode decides)', async () => {
    const { sink, stream } = setup({ error: new Error('bug') });
    stream.receive(reqHeaders(HEADERS));
    stream.receive(reqBody(BODY, true));
    await stream.idle();
    expect(sink.replies).toHaveLength(0);
    expect(sink.failures).toHaveLength(1);
  });
});

describe('ExtProcStream routing metadata', () => {
  it('hands the llm-d.routing namespace to the scheduler as JSON, and nothing when absent', async () => {
    const { stream, scheduler } = setup();
    const hashes = { listValue: { values: [{ stringValue: '18446744073709551610' }, { stringValue: '7' }] } };
    stream.receive(reqHeaders(HEADERS, false, { 'llm-d.routing': { fields: { prefix_hashes: hashes } } }));
    stream.receive(reqBody(BODY, true));
    await stream.idle();
    expect(scheduler.decisions[0]!.options?.metadata).toEqual({ 'llm-d.routing': { prefix_hashes: ['18446744073709551610', '7'] } });

    const plain = setup();
    plain.stream.receive(reqHeaders(HEADERS));
    plain.stream.receive(reqBody(BODY, true));
    await plain.stream.idle();
    expect(plain.scheduler.decisions[0]!.options?.metadata).toBeUndefined();
  });
});

describe('ExtProcStream subset hints', () => {
  it('passes a list hint to the scheduler', async () => {
    const { sink, stream, scheduler } = setup();
    stream.receive(reqHeaders(HEADERS, false, subsetHint(['192.168.1.2:8000', '192.168.1.3:8000'])));
    stream.receive(reqBody(BODY, true));
    await stream.idle();
    expect(scheduler.decisions[0]!.options?.subsetHint).toEqual(['192.168.1.2:8000', '192.168.1.3:8000']);
    expect(setHeaders(sink.replies[0]!.request_headers!.response.header_mutation)['x-gateway-destination-endpoint']).toBe('192.168.1.2:8000');
  });

  it('accepts a comma-joined string hint', async () => {
    const { stream, scheduler } = setup();
    stream.receive(reqHeaders(HEADERS, false, subsetHint('192.168.1.3:8000, 192.168.1.1:8000')));
    stream.receive(reqBody(BODY, true));
    await stream.idle();
    expect(scheduler.decisions[0]!.options?.subsetHint).toEqual(['192.168.1.3:8000', '192.168.1.1:8000']);
  });

  it('passes no hint when the metadata has none', async () => {
    const { stream, scheduler } = setup();
    stream.receive(reqHeaders(HEADERS));
    stream.receive(reqBody(BODY, true));
    await stream.idle();
    expect(scheduler.decisions[0]!.options?.subsetHint).toBeUndefined();
  });
});
