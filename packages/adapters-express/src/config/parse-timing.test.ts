import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DecisionTracer, ParseTiming } from '@switchyard/core';
import { createGatewayFromConfig, type Gateway } from '@switchyard/express';
import { startFakeUpstream, type FakeUpstream } from '../test-support/fake-upstream.js';
import { post } from '../test-support/harness.js';

/** A tracer that keeps what the gateway reports at the start of each request's spans. */
function recordingTracer(): { tracer: DecisionTracer; begun: { id: string; atMs: number; parsed: ParseTiming | undefined }[] } {
  const begun: { id: string; atMs: number; parsed: ParseTiming | undefined }[] = [];
  const tracer: DecisionTracer = {
    begin(request, _pool, atMs, parsed) {
      begun.push({ id: request.id, atMs, parsed });
      return { decided: () => undefined, rejected: () => undefined, ended: () => undefined };
    },
  };
  return { tracer, begun };
}

describe('the gateway reports its body parse to tracing', () => {
  let upstream: FakeUpstream;
  let gw: Gateway | undefined;
  beforeAll(async () => {
    upstream = await startFakeUpstream('a');
  });
  afterAll(async () => {
    await gw?.close();
    await upstream.close();
  });

  it('passes when parsing started and ended, before the pick', async () => {
    const { tracer, begun } = recordingTracer();
    gw = await createGatewayFromConfig({ scrapeMetrics: false, endpoints: [upstream.address], tracer });
    const { url } = await gw.listen(0, '127.0.0.1');
    const answered = await post(`${url}/v1/chat/completions`, { model: 'm1', messages: [{ role: 'user', content: 'hi' }] }, { 'x-request-id': 'parse-1' });
    expect(answered.status).toBe(200);
    expect(begun).toHaveLength(1);
    const [first] = begun;
    expect(first?.id).toBe('parse-1');
    const parsed = first?.parsed;
    expect(parsed).toBeDefined();
    expect(parsed?.startedAt).toBeLessThanOrEqual(parsed?.endedAt ?? -1);
    expect(parsed?.endedAt).toBeLessThanOrEqual(first?.atMs ?? -1);
  });
});
