import * as otel from '@opentelemetry/api';
import { afterAll, describe, expect, it } from 'vitest';
import { EndpointPicker, EndpointPool, ManualClock, loadOpenTelemetry, openTelemetryDecisionTracer, parseRequest, recordDecisions } from '@switchyard/core';
import { metrics } from '../testing/index.js';

interface TestSpan {
  readonly name: string;
  readonly parent: TestSpan | undefined;
  readonly start: number | undefined;
  end: number | undefined;
  status: number;
  readonly attributes: Record<string, unknown>;
}

/** A tracer provider that keeps every span in memory, registered through the real API. */
function testProvider(): { spans: TestSpan[]; provider: otel.TracerProvider } {
  const spans: TestSpan[] = [];
  const tracer = {
    startSpan(name: string, options: otel.SpanOptions = {}, ctx?: otel.Context): otel.Span {
      const parent = ctx === undefined ? undefined : (otel.trace.getSpan(ctx) as unknown as { record?: TestSpan } | undefined)?.record;
      const record: TestSpan = { name, parent, start: options.startTime as number | undefined, end: undefined, status: 0, attributes: { ...options.attributes } };
      spans.push(record);
      const span = {
        record,
        spanContext: () => ({ traceId: '1'.repeat(32), spanId: String(spans.length).padStart(16, '0'), traceFlags: 1 }),
        setAttribute: (k: string, v: unknown) => { record.attributes[k] = v; return span; },
        setStatus: (s: otel.SpanStatus) => { record.status = s.code; return span; },
        end: (t?: otel.TimeInput) => { record.end = t as number; },
      };
      return span as unknown as otel.Span;
    },
  };
  return { spans, provider: { getTracer: () => tracer as unknown as otel.Tracer } };
}

describe('OpenTelemetry spans', () => {
  afterAll(() => {
    otel.trace.disable();
  });

  it('loads the optional API', async () => {
    expect((await loadOpenTelemetry())?.trace).toBeDefined();
  });

  it('emits request, queue wait, schedule (per profile) and upstream spans with clock times', async () => {
    const { spans, provider } = testProvider();
    otel.trace.setGlobalTracerProvider(provider);
    const clock = new ManualClock(1000);
    const pool = new EndpointPool();
    pool.add({ id: 'e0', address: '10.0.0.1:8000' });
    pool.setMetrics('e0', metrics({ updatedAt: 1000 }));
    const tracer = openTelemetryDecisionTracer(otel, { toEpochMs: (t) => t });
    const scheduler = recordDecisions(new EndpointPicker({ pool, clock }), { tracer, clock, pool: 'main' });
    const d = await scheduler.pick(parseRequest({ path: '/v1/completions', headers: { 'x-request-id': 'span-1' }, body: '{"model":"m","prompt":"hi"}' }));
    clock.advance(40);
    d.complete({ kind: 'error', status: 502 });

    const byName = (n: string) => spans.filter((s) => s.name === n);
    const [root] = byName('switchyard.request');
    expect(root).toMatchObject({ parent: undefined, start: 1000, end: 1040, status: 2, attributes: { 'switchyard.request_id': 'span-1', 'switchyard.pool': 'main', 'gen_ai.request.model': 'm' } });
    expect(byName('switchyard.queue_wait')[0]?.parent).toBe(root);
    const schedule = byName('switchyard.schedule')[0];
    expect(schedule?.parent).toBe(root);
    const profile = byName('switchyard.schedule.profile')[0];
    expect(profile).toMatchObject({ parent: schedule, attributes: { 'switchyard.profile': 'default', 'switchyard.picked': ['e0'] } });
    expect(byName('switchyard.upstream')[0]).toMatchObject({ parent: root, start: 1000, end: 1040, status: 2, attributes: { 'switchyard.endpoint': 'e0', 'switchyard.outcome': 'error' } });
    expect(spans.every((s) => s.end !== undefined)).toBe(true);
  });
  it('opens the request span at parse start with a parse child when the adapter reports its parse', async () => {
    const { spans, provider } = testProvider();
    otel.trace.disable(); // the API keeps one global provider: replace the previous test's
    otel.trace.setGlobalTracerProvider(provider);
    const clock = new ManualClock(2000);
    const pool = new EndpointPool();
    pool.add({ id: 'e0', address: '10.0.0.1:8000' });
    pool.setMetrics('e0', metrics({ updatedAt: 2000 }));
    const tracer = openTelemetryDecisionTracer(otel, { toEpochMs: (t) => t });
    const scheduler = recordDecisions(new EndpointPicker({ pool, clock }), { tracer, clock });
    const request = parseRequest({ path: '/v1/chat/completions', headers: {}, body: '{"model":"m","messages":[{"role":"user","content":"hi"}]}' });
    const d = await scheduler.pick(request, { parsed: { startedAt: 1995, endedAt: 1998 } });
    clock.advance(10);
    d.complete({ kind: 'success' });

    const root = spans.find((s) => s.name === 'switchyard.request');
    expect(root).toMatchObject({ start: 1995, end: 2010 });
    const parse = spans.find((s) => s.name === 'switchyard.parse');
    expect(parse).toMatchObject({ parent: root, start: 1995, end: 1998, attributes: { 'switchyard.api': 'openai-chat-completions', 'switchyard.body_bytes': request.byteSize } });
    expect(spans.find((s) => s.name === 'switchyard.queue_wait')?.start).toBe(2000);
  });

  it('emits no parse span when the adapter does not report one', async () => {
    const { spans, provider } = testProvider();
    otel.trace.disable();
    otel.trace.setGlobalTracerProvider(provider);
    const pool = new EndpointPool();
    pool.add({ id: 'e0', address: '10.0.0.1:8000' });
    const clock = new ManualClock(0);
    pool.setMetrics('e0', metrics({ updatedAt: 0 }));
    const scheduler = recordDecisions(new EndpointPicker({ pool, clock }), { tracer: openTelemetryDecisionTracer(otel, { toEpochMs: (t) => t }), clock });
    (await scheduler.pick(parseRequest({ path: '/v1/completions', headers: {}, body: '{"model":"m","prompt":"x"}' }))).complete({ kind: 'success' });
    expect(spans.map((s) => s.name)).toContain('switchyard.request');
    expect(spans.map((s) => s.name)).not.toContain('switchyard.parse');
  });
});
