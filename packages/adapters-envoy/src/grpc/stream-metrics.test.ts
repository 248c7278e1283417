import * as grpc from '@grpc/grpc-js';
import { connect, constants } from 'node:http2';
import { EndpointPool, ManualClock, parsePrometheusText } from '@switchyard/core';
import { FakeScheduler, waitFor } from '@switchyard/core/testing';
import { startEppServer, type EppServer } from '@switchyard/envoy';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvoyEmulator } from '../test-support/envoy-client.js';
import { TRANSPORTS } from '../test-support/transports.js';
import { reqBody, reqHeaders, respBody, respHeaders } from '../test-support/wire-helpers.js';
import { grpcCodeName } from './stream-metrics.js';

const HEADERS = { ':method': 'POST', ':path': '/v1/completions', 'content-type': 'application/json', 'x-request-id': 'r-1' };
const BODY = '{"max_tokens":10,"model":"m","prompt":"hello"}';

/** One sample's value: `name{labels}`, 0 when absent. */
async function sample(registry: Registry, name: string, labels: Record<string, string> = {}): Promise<number> {
  const families = parsePrometheusText(await registry.metrics());
  const want = Object.entries(labels);
  const s = families.flatMap((f) => f.samples).find((x) => x.name === name && want.every(([k, v]) => x.labels[k] === v) && Object.keys(x.labels).length === want.length);
  return s?.value ?? 0;
}

describe.each(TRANSPORTS)('ext_proc stream metrics over %s', (transport) => {
  const pool = new EndpointPool();
  pool.add({ address: '10.0.0.1:8000' });
  const clock = new ManualClock(1_000);
  const registry = new Registry();
  let server: EppServer;
  let envoy: EnvoyEmulator;

  beforeAll(async () => {
    const scheduler = new FakeScheduler(pool);
    server = await startEppServer({ transport, scheduler: { pick: (r, o) => scheduler.pick(r, o) }, pool, host: '127.0.0.1', port: 0, clock, streamMetrics: registry });
    envoy = new EnvoyEmulator(server.port);
  });

  afterAll(async () => {
    envoy.close();
    await server.close(0);
  });

  it('counts a stream in flight while it is open, then by its end status OK with its lifetime', async () => {
    const s = envoy.open();
    s.send(reqHeaders(HEADERS));
    s.send(reqBody(BODY, true));
    await s.waitFor(2);
    expect(await sample(registry, 'llm_d_epp_extproc_streams_inflight')).toBe(1);
    clock.advance(2_500);
    s.send(respHeaders({ ':status': '200', 'content-type': 'application/json' }));
    s.send(respBody('{"usage":{"prompt_tokens":1,"completion_tokens":1}}', true));
    await s.waitFor(4);
    s.halfClose();
    expect((await s.ended).code).toBe(grpc.status.OK);
    await waitFor(async () => (await sample(registry, 'llm_d_epp_extproc_streams_total', { code: 'OK' })) === 1 || undefined, { what: 'the OK stream counted' });
    expect(await sample(registry, 'llm_d_epp_extproc_streams_inflight')).toBe(0);
    // 2.5 s: above the 1 s bound, within the 5 s one.
    expect(await sample(registry, 'llm_d_epp_extproc_stream_duration_seconds_bucket', { le: '1' })).toBe(0);
    expect(await sample(registry, 'llm_d_epp_extproc_stream_duration_seconds_bucket', { le: '5' })).toBe(1);
    expect(await sample(registry, 'llm_d_epp_extproc_stream_duration_seconds_sum')).toBeCloseTo(2.5);
  });

  it('counts a stream the proxy resets as Canceled, once', async () => {
    // RST_STREAM without a half-close first, as a proxy drops a stream (grpc-js's client cancel half-closes first).
    const session = connect(`http://127.0.0.1:${server.port}`);
    session.on('error', () => undefined);
    const s = session.request({ ':method': 'POST', ':path': '/envoy.service.ext_proc.v3.ExternalProcessor/Process', 'content-type': 'application/grpc', te: 'trailers' });
    s.on('error', () => undefined);
    await waitFor(async () => (await sample(registry, 'llm_d_epp_extproc_streams_inflight')) === 1 || undefined, { what: 'the stream open' });
    clock.advance(40);
    s.close(constants.NGHTTP2_CANCEL);
    session.close();
    await waitFor(async () => (await sample(registry, 'llm_d_epp_extproc_streams_total', { code: 'Canceled' })) === 1 || undefined, { what: 'the cancelled stream counted' });
    expect(await sample(registry, 'llm_d_epp_extproc_streams_inflight')).toBe(0);
    expect(await sample(registry, 'llm_d_epp_extproc_stream_duration_seconds_count')).toBe(2);
    expect(await sample(registry, 'llm_d_epp_extproc_stream_duration_seconds_bucket', { le: '0.05' })).toBe(1);
    expect(await sample(registry, 'llm_d_epp_extproc_streams_total', { code: 'OK' })).toBe(1);
  });

  it("counts a stream its grpc-timeout ended as DeadlineExceeded", async () => {
    const session = connect(`http://127.0.0.1:${server.port}`);
    session.on('error', () => undefined);
    const s = session.request({ ':method': 'POST', ':path': '/envoy.service.ext_proc.v3.ExternalProcessor/Process', 'content-type': 'application/grpc', te: 'trailers', 'grpc-timeout': '20m' });
    s.on('error', () => undefined);
    s.resume();
    // http2 runs the deadline on the injected clock, grpc-js on its own timer.
    await waitFor(async () => {
      clock.advance(25);
      return (await sample(registry, 'llm_d_epp_extproc_streams_total', { code: 'DeadlineExceeded' })) === 1 || undefined;
    }, { what: 'the expired stream counted' });
    session.destroy();
    expect(await sample(registry, 'llm_d_epp_extproc_streams_inflight')).toBe(0);
    expect(await sample(registry, 'llm_d_epp_extproc_streams_total', { code: 'Canceled' })).toBe(1);
  });
});

describe('grpcCodeName', () => {
  it("spells gRPC codes as Go's codes.Code.String() does", () => {
    expect([0, 1, 8, 12, 13, 14, 16].map(grpcCodeName)).toEqual(['OK', 'Canceled', 'ResourceExhausted', 'Unimplemented', 'Internal', 'Unavailable', 'Unauthenticated']);
    expect(grpcCodeName(42)).toBe('Code(42)');
  });
});
