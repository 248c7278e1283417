import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { EndpointPool, SwitchyardError } from '@switchyard/core';
import { FakeScheduler } from '@switchyard/core/testing';
import { startFakeUpstream, type FakeUpstream } from '../test-support/fake-upstream.js';
import { get, post, startGateway, type RunningGateway } from '../test-support/harness.js';

const chat = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ model: 'm1', messages: [{ role: 'user', content: 'hi' }], ...extra });

describe('createGatewayHandler: forwarding', () => {
  let a: FakeUpstream;
  let b: FakeUpstream;
  let pool: EndpointPool;
  let scheduler: FakeScheduler;
  let gw: RunningGateway;

  beforeAll(async () => {
    a = await startFakeUpstream('a');
    b = await startFakeUpstream('b');
    pool = new EndpointPool();
    pool.add({ address: a.address });
    pool.add({ address: b.address });
    scheduler = new FakeScheduler(pool, { rewrites: { 'alias-model': 'real-model' }, responseHeaders: (primary) => ({ 'x-session-token': Buffer.from(primary.id).toString('base64') }) });
    gw = await startGateway({ scheduler, endpoints: pool });
  });
  afterAll(async () => {
    await gw.close();
    await a.close();
    await b.close();
  });
  afterEach(() => {
    scheduler.behavior = () => 'ok';
    expect(scheduler.badLifecycles()).toEqual([]);
  });

  it('forwards a JSON completion, sets the served header and reports usage once', async () => {
    const r = await post(`${gw.url}/v1/chat/completions`, chat());
    expect(r.status).toBe(200);
    const served = r.headers['x-gateway-destination-endpoint-served'];
    expect([a.address, b.address]).toContain(served);
    expect(r.headers['x-session-token']).toBe(Buffer.from(String(served)).toString('base64'));
    const d = scheduler.decisions.at(-1);
    expect(d?.starts.map((s) => s.endpoint.address)).toEqual([served]);
    expect(d?.usages).toEqual([{ promptTokens: 11, completionTokens: 5, cachedTokens: 3 }]);
    expect(d?.outcomes).toEqual([{ kind: 'success', usage: { promptTokens: 11, completionTokens: 5, cachedTokens: 3 } }]);
  });

  it('restores the client model name after a rewrite, in JSON and in SSE', async () => {
    const r = await post(`${gw.url}/v1/chat/completions`, chat({ model: 'alias-model' }));
    expect((r.json() as { model: string }).model).toBe('alias-model');
    const upstreamSaw = [...a.received, ...b.received].at(-1);
    expect(upstreamSaw?.body.model).toBe('real-model');
    const s = await post(`${gw.url}/v1/chat/completions`, chat({ model: 'alias-model', stream: true, stream_options: { include_usage: true } }));
    expect(s.headers['content-type']).toContain('text/event-stream');
    expect(s.text).not.toContain('real-model');
    expect(s.text.match(/"model":"alias-model"/g)?.length).toBe(4);
    expect(scheduler.decisions.at(-1)?.usages).toEqual([{ promptTokens: 11, completionTokens: 5, cachedTokens: 3 }]);
  });

  it('works with the official openai client, streaming and not', async () => {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'none', maxRetries: 0 });
    const c = await client.chat.completions.create({ model: 'alias-model', messages: [{ role: 'user', content: 'hi' }] });
    expect(c.model).toBe('alias-model');
    expect(c.choices[0]?.message.content).toMatch(/Hello from [ab]/);
    const stream = await client.chat.completions.create({ model: 'm1', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
    let text = '';
    let usage: unknown;
    for await (const ev of stream) {
      text += ev.choices[0]?.delta.content ?? '';
      if (ev.usage) usage = ev.usage;
    }
    expect(text).toMatch(/Hello from [ab]/);
    expect(usage).toMatchObject({ prompt_tokens: 11 });
    const models = await client.models.list();
    expect(models.data.map((m) => m.id).sort()).toEqual(['a-model', 'b-model']);
  });

  it('strips client copies of control headers and ignores them when untrusted', async () => {
    await post(`${gw.url}/v1/chat/completions`, chat(), {
      'x-llm-d-inference-fairness-id': 'spoofed',
      'x-gateway-inference-objective': 'premium',
      'x-gateway-destination-endpoint': '10.0.0.1:1',
      'x-llm-d-model-name-rewrite': 'other',
    });
    const d = scheduler.decisions.at(-1);
    expect(d?.options?.trustClassificationHeaders).toBe(false);
    expect(d?.scheduled.fairnessId).toBe('default-flow');
    expect(d?.scheduled.targetModel).toBe('m1');
    const seen = [...a.received, ...b.received].at(-1);
    expect(seen?.headers['x-llm-d-inference-fairness-id']).toBeUndefined();
    expect(seen?.headers['x-gateway-inference-objective']).toBeUndefined();
    expect(seen?.headers['x-llm-d-model-name-rewrite']).toBeUndefined();
    // Only the gateway's own destination header survives, never the client's copy.
    expect(seen?.headers['x-gateway-destination-endpoint']).not.toContain('10.0.0.1');
  });

  it('strips every x-llm-d-* and x-gateway-* header and the sidecar-trusted names', async () => {
    await post(`${gw.url}/v1/chat/completions`, chat(), {
      'x-prefiller-url': 'http://169.254.169.254/latest',
      'x-prefiller-host-port': '10.0.0.9:8000',
      'x-gateway-destination-endpoint-subset': '10.0.0.1:1',
      'x-gateway-destination-endpoint-scores': '{"10.0.0.1:1":1}',
      'x-llm-d-future-routing-hint': 'spoofed',
      'x-session-token': 'kept',
      'x-test-id': 'strip-prefixes',
    });
    const seen = [...a.received, ...b.received].find((r) => r.headers['x-test-id'] === 'strip-prefixes');
    expect(seen).toBeDefined();
    const leaked = Object.keys(seen?.headers ?? {}).filter((h) => h.startsWith('x-llm-d-') || (h.startsWith('x-gateway-') && h !== 'x-gateway-destination-endpoint') || h.startsWith('x-prefiller'));
    expect(leaked).toEqual([]);
    expect(seen?.headers['x-session-token']).toBe('kept');
  });

  it.each([
    ['malformed JSON', '{"model": "m1", "messages": [', 400, 'bad_request'],
    ['a missing model', JSON.stringify({ messages: [] }), 400, 'bad_request'],
    ['a non-object body', '[1,2,3]', 400, 'bad_request'],
  ])('answers %s with an OpenAI-style error', async (_what, body, status, code) => {
    const r = await post(`${gw.url}/v1/chat/completions`, body);
    expect(r.status).toBe(status);
    expect(r.json()).toMatchObject({ error: { code, type: 'invalid_request_error' } });
  });

  it('answers contract errors from the scheduler with status, reason header and body', async () => {
    scheduler.behavior = () => new SwitchyardError('REJECTED_SATURATED', 'queue full');
    const r = await post(`${gw.url}/v1/chat/completions`, chat());
    expect(r.status).toBe(429);
    expect(r.headers['x-llm-d-request-dropped-reason']).toBe('rejected-saturated');
    expect(r.json()).toMatchObject({ error: { code: 'rejected_saturated', type: 'rate_limit_error' } });
  });

  it('fails closed by default when the scheduler throws', async () => {
    scheduler.behavior = () => 'throw';
    const r = await post(`${gw.url}/v1/chat/completions`, chat());
    expect(r.status).toBe(500);
    expect(r.headers['x-llm-d-request-dropped-reason']).toBe('rejected-internal');
    expect(r.text).not.toContain('exploded');
    const m = await get(`${gw.url}/metrics`);
    expect(m.text).toMatch(/switchyard_gateway_picker_failures_total\{pool="default",mode="fail_close"\} 1/);
  });

  it('answers unknown paths 404 and wrong methods 405', async () => {
    const r = await post(`${gw.url}/v1/unknown`, chat());
    expect(r.status).toBe(404);
    expect(r.json()).toMatchObject({ error: { code: 'not_found' } });
    const g = await get(`${gw.url}/v1/chat/completions`);
    expect(g.status).toBe(405);
    expect(g.headers.allow).toBe('POST');
  });

  it('serves healthz, readyz and metrics', async () => {
    expect((await get(`${gw.url}/healthz`)).status).toBe(200);
    const ready = await get(`${gw.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ready', pools: { default: 2 } });
    const m = await get(`${gw.url}/metrics`);
    expect(m.headers['content-type']).toContain('text/plain');
    expect(m.text).toContain('switchyard_gateway_requests_total{route="inference",code="200"}');
    expect(m.text).toContain('switchyard_gateway_tokens_total{pool="default",kind="cached"}');
  });
});

describe('createGatewayHandler: body limit and trust', () => {
  let up: FakeUpstream;
  let gw: RunningGateway;
  let scheduler: FakeScheduler;

  beforeAll(async () => {
    up = await startFakeUpstream('u');
    const pool = new EndpointPool();
    pool.add({ address: up.address });
    scheduler = new FakeScheduler(pool);
    gw = await startGateway({
      scheduler,
      maxBodyBytes: 1024,
      trustClassificationHeaders: (req) => req.headers['x-internal'] === 'yes',
      classify: (req) => (req.headers.authorization === 'Bearer team-a' ? { fairnessId: 'team-a', objective: 'gold' } : undefined),
    });
  });
  afterAll(async () => {
    await gw.close();
    await up.close();
  });

  it('refuses oversized bodies with 413 before scheduling', async () => {
    const before = scheduler.decisions.length;
    const r = await post(`${gw.url}/v1/chat/completions`, chat({ messages: [{ role: 'user', content: 'x'.repeat(5000) }] }));
    expect(r.status).toBe(413);
    expect(r.json()).toMatchObject({ error: { code: 'payload_too_large' } });
    expect(scheduler.decisions.length).toBe(before);
  });

  it('honours classification headers only from trusted callers, and never forwards them', async () => {
    await post(`${gw.url}/v1/chat/completions`, chat(), { 'x-internal': 'yes', 'x-llm-d-inference-fairness-id': 'tenant-7' });
    expect(scheduler.decisions.at(-1)?.scheduled.fairnessId).toBe('tenant-7');
    expect(up.received.at(-1)?.headers['x-llm-d-inference-fairness-id']).toBeUndefined();
    await post(`${gw.url}/v1/chat/completions`, chat(), { 'x-llm-d-inference-fairness-id': 'tenant-7' });
    expect(scheduler.decisions.at(-1)?.scheduled.fairnessId).toBe('default-flow');
  });

  it('lets the classify hook map an identity to a fairness id and objective', async () => {
    await post(`${gw.url}/v1/chat/completions`, chat(), { authorization: 'Bearer team-a', 'x-llm-d-inference-fairness-id': 'spoof' });
    const d = scheduler.decisions.at(-1);
    expect(d?.scheduled.fairnessId).toBe('team-a');
    expect(d?.scheduled.objective).toBe('gold');
  });
});

describe('request ids', () => {
  it('generates unique ids and propagates a client id unchanged', async () => {
    const { requestIdGenerator } = await import('./request-id.js');
    const a = requestIdGenerator();
    const b = requestIdGenerator();
    const ids = new Set([a(), a(), a(), b(), b()]);
    expect(ids.size).toBe(5);
    const up = await startFakeUpstream('id');
    const pool = new EndpointPool();
    pool.add({ address: up.address });
    const gw = await startGateway({ scheduler: new FakeScheduler(pool) });
    try {
      const given = await post(`${gw.url}/v1/completions`, { model: 'm', prompt: 'x' }, { 'x-request-id': 'client-42' });
      expect(given.headers['x-request-id']).toBe('client-42');
      expect(up.received.at(-1)?.headers['x-request-id']).toBe('client-42');
      const generated = await post(`${gw.url}/v1/completions`, { model: 'm', prompt: 'x' });
      expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f]{16}-[0-9a-z]+$/);
      expect(up.received.at(-1)?.headers['x-request-id']).toBe(generated.headers['x-request-id']);
    } finally {
      await gw.close();
      await up.close();
    }
  });
});
