import * as grpc from '@grpc/grpc-js';
import { EndpointPool } from '@switchyard/core';
import { ServingStatus, startEppServer, type EppServer } from '@switchyard/envoy';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TRANSPORTS } from '../test-support/transports.js';
import { EnvoyEmulator } from '../test-support/envoy-client.js';
import { FakeScheduler, waitFor } from '@switchyard/core/testing';
import { TEST_CERT, TEST_KEY } from '../test-support/tls-fixture.js';
import { chunkOf, describeReplies, reqBody, reqHeaders, respBody, respHeaders, setHeaders } from '../test-support/wire-helpers.js';

const HEADERS = { ':method': 'POST', ':path': '/v1/completions', 'content-type': 'application/json', hi: 'mom', 'x-request-id': 'r-1' };
const BODY = '{"max_tokens":100,"model":"my-model","prompt":"hello","temperature":0}';

describe.each(TRANSPORTS)('%s transport', (transport) => {
  const pool = new EndpointPool();
  for (let i = 1; i <= 3; i++) pool.add({ address: `192.168.1.${i}:8000` });
  let scheduler = new FakeScheduler(pool);
  let server: EppServer;
  let envoy: EnvoyEmulator;

  beforeAll(async () => {
    server = await startEppServer({ transport, scheduler: { pick: (r, o) => scheduler.pick(r, o) }, pool, host: '127.0.0.1', port: 0 });
    envoy = new EnvoyEmulator(server.port);
  });

  afterAll(async () => {
    envoy.close();
    await server.close(1000);
  });

  afterEach(() => {
    scheduler = new FakeScheduler(pool);
  });

  async function settle(): Promise<void> {
    await waitFor(() => server.stats().activeStreams === 0, { what: 'every stream closed' });
  }

  describe('ext_proc over gRPC', () => {
    it('answers a split body with the header reply (destination, metadata) and one body chunk', async () => {
      const s = envoy.open();
      s.send(reqHeaders(HEADERS));
      s.send(reqBody(BODY.slice(0, 25), false));
      s.send(reqBody(BODY.slice(25), true));
      const [head, body] = await s.waitFor(2);
      expect(describeReplies([head!, body!])).toEqual(['request_headers', `request_body(${BODY.length},eos)`]);
      const common = head!.request_headers!.response;
      expect(common.clear_route_cache).toBe(true);
      expect(setHeaders(common.header_mutation)).toEqual({
        'x-gateway-destination-endpoint': '192.168.1.1:8000',
        'content-length': String(BODY.length),
        'content-type': 'application/json',
        hi: 'mom',
        'x-request-id': 'r-1',
      });
      expect(head!.dynamic_metadata).toMatchObject({
        fields: { 'envoy.lb': { structValue: { fields: { 'x-gateway-destination-endpoint': { stringValue: '192.168.1.1:8000' } } } } },
      });
      expect(chunkOf(body!).body).toBe(BODY);
      // Response path on the same stream, then the proxy closes.
      s.send(respHeaders({ ':status': '200', 'content-type': 'application/json' }));
      s.send(respBody('{"model":"my-model","usage":{"prompt_tokens":3,"completion_tokens":4}}', true));
      const all = await s.waitFor(4);
      expect(describeReplies(all.slice(2))).toEqual(['response_headers', 'response_body(70,eos)']);
      s.halfClose();
      expect((await s.ended).code).toBe(grpc.status.OK);
      expect(scheduler.decisions[0]!.outcomes).toEqual([{ kind: 'success', usage: { promptTokens: 3, completionTokens: 4 } }]);
    });

    it('streams a 300 KB body back in 62,000-byte chunks', async () => {
      const body = JSON.stringify({ model: 'my-model', prompt: 'y'.repeat(300_000) });
      const s = envoy.open();
      s.send(reqHeaders(HEADERS));
      for (let i = 0; i < body.length; i += 16_384) s.send(reqBody(body.slice(i, i + 16_384), i + 16_384 >= body.length));
      const n = 1 + Math.ceil(body.length / 62_000);
      const replies = await s.waitFor(n);
      expect(replies.slice(1).map((r) => chunkOf(r).eos)).toEqual([...Array<boolean>(n - 2).fill(false), true]);
      expect(replies.slice(1).map((r) => chunkOf(r).body).join('')).toBe(body);
      s.cancel();
    });

    it('accepts one body message larger than gRPC\'s 4 MiB default', async () => {
      const body = JSON.stringify({ model: 'my-model', prompt: 'z'.repeat(5 * 1024 * 1024) });
      const s = envoy.open();
      s.send(reqHeaders(HEADERS));
      s.send(reqBody(body, true));
      const n = 1 + Math.ceil(body.length / 62_000);
      const replies = await s.waitFor(n);
      expect(replies).toHaveLength(n);
      expect(chunkOf(replies[n - 1]!).eos).toBe(true);
      s.cancel();
      await s.ended;
    });

    it('echoes an SSE response chunk for chunk', async () => {
      const s = envoy.open();
      s.send(reqHeaders(HEADERS));
      s.send(reqBody(BODY, true));
      await s.waitFor(2);
      s.send(respHeaders({ ':status': '200', 'content-type': 'text/event-stream' }));
      s.send(respBody('data: {}\n\n', false));
      s.send(respBody('data: {"usage":{"prompt_tokens":7,"total_tokens":17,"completion_tokens":10}}\n\ndata: [DONE]\n\n', false));
      s.send(respBody('', true));
      const replies = await s.waitFor(6);
      expect(describeReplies(replies.slice(2))).toEqual(['response_headers', 'response_body(10)', 'response_body(92)', 'response_body(0,eos)']);
      s.halfClose();
      await s.ended;
      expect(scheduler.decisions[0]!.usages).toEqual([{ promptTokens: 7, completionTokens: 10 }]);
    });

    it('handles request and response trailers', async () => {
      const s = envoy.open();
      s.send(reqHeaders(HEADERS));
      s.send(reqBody(BODY, false));
      s.send({ request_trailers: { trailers: { headers: [] } } });
      s.send(respHeaders({ ':status': '200', 'content-type': 'application/grpc+json' }));
      s.send(respBody('{"a":1}', false));
      s.send({ response_trailers: { trailers: { headers: [{ key: 'grpc-status', raw_value: Buffer.from('0') }] } } });
      const replies = await s.waitFor(6);
      expect(describeReplies(replies)).toEqual([
        'request_headers',
        `request_body(${BODY.length})`,
        'request_trailers',
        'response_headers',
        'response_body(7)',
        'response_trailers',
      ]);
      s.halfClose();
      await s.ended;
    });

    it('answers bad JSON with a 400 ImmediateResponse and closes the stream OK', async () => {
      const s = envoy.open();
      s.send(reqHeaders(HEADERS));
      s.send(reqBody('no healthy upstream', true));
      const [reply] = await s.waitFor(1);
      expect(reply!.immediate_response!.status.code).toBe(400);
      expect(Buffer.from(reply!.immediate_response!.body!).toString()).toContain('inference error: BAD_REQUEST');
      expect((await s.ended).code).toBe(grpc.status.OK);
    });

    it('ends the stream with a gRPC INTERNAL error on failures outside the contract', async () => {
      scheduler = new FakeScheduler(pool, { error: new Error('boom') });
      const s = envoy.open();
      s.send(reqHeaders(HEADERS));
      s.send(reqBody(BODY, true));
      const end = await s.ended;
      expect(end.code).toBe(grpc.status.INTERNAL);
      expect(s.replies).toHaveLength(0);
      expect(server.stats().failures).toBeGreaterThan(0);
    });

    it('a cancel while queued aborts the wait and leaks nothing', async () => {
      scheduler = new FakeScheduler(pool, { gated: true });
      const s = envoy.open();
      s.send(reqHeaders(HEADERS));
      s.send(reqBody(BODY, true));
      await waitFor(() => scheduler.waiting > 0, { what: 'a held pick' });
      expect(scheduler.waiting).toBe(1);
      expect(server.stats().schedulingStreams).toBe(1);
      s.cancel();
      await s.ended;
      await settle();
      expect(scheduler.waiting).toBe(0);
      expect(server.stats()).toMatchObject({ activeStreams: 0, schedulingStreams: 0 });
    });

    it('serves many concurrent streams on one connection independently', async () => {
      const streams = Array.from({ length: 30 }, (_, i) => {
        const s = envoy.open();
        s.send(reqHeaders({ ...HEADERS, 'x-request-id': `c-${i}` }));
        s.send(reqBody(JSON.stringify({ model: `m-${i}`, prompt: 'p' }), true));
        return s;
      });
      const replies = await Promise.all(streams.map((s) => s.waitFor(2)));
      replies.forEach((r, i) => {
        expect(setHeaders(r[0]!.request_headers!.response.header_mutation)['x-request-id']).toBe(`c-${i}`);
        expect(JSON.parse(chunkOf(r[1]!).body)).toMatchObject({ model: `m-${i}` });
      });
      streams.forEach((s) => { s.cancel(); });
      await Promise.all(streams.map((s) => s.ended));
      await settle();
      expect(scheduler.active).toBe(0);
      expect(pool.list().map((e) => e.inFlightRequests)).toEqual([0, 0, 0]);
    });
  });

  describe('grpc.health.v1', () => {
    it('reports liveness, readiness, the ext_proc service name and unknown services', async () => {
      expect(await envoy.check('liveness')).toBe(ServingStatus.SERVING);
      expect(await envoy.check('readiness')).toBe(ServingStatus.SERVING);
      expect(await envoy.check('')).toBe(ServingStatus.SERVING);
      expect(await envoy.check('envoy.service.ext_proc.v3.ExternalProcessor')).toBe(ServingStatus.SERVING);
      expect(await envoy.check('something-else')).toBe(ServingStatus.SERVICE_UNKNOWN);
    });

    it('watches readiness changes', async () => {
      const watch = envoy.watch('readiness');
      const seen: number[] = [];
      const two = new Promise<void>((resolve) => {
        watch.on('data', (m: { status?: number }) => {
          seen.push(m.status ?? 0);
          if (seen.length === 2) resolve();
        });
      });
      watch.on('error', () => undefined);
      await waitFor(() => seen.length > 0, { what: 'the first health status' });
      server.health.setReady(false);
      await two;
      expect(seen).toEqual([ServingStatus.SERVING, ServingStatus.NOT_SERVING]);
      expect(await envoy.check('liveness')).toBe(ServingStatus.SERVING);
      server.health.setReady(true);
      watch.cancel();
    });
  });

  describe('health on its own port', () => {
    it('answers probes with the same state, and frees both ports on close', async () => {
      const own = await startEppServer({ transport, scheduler: { pick: (r, o) => scheduler.pick(r, o) }, pool, host: '127.0.0.1', port: 0, healthPort: 0 });
      const probe = new EnvoyEmulator(own.healthPort ?? -1);
      try {
        expect(own.healthPort).not.toBe(own.port);
        expect(await probe.check('readiness')).toBe(ServingStatus.SERVING);
        expect(await probe.check('liveness')).toBe(ServingStatus.SERVING);
        own.health.setReady(false);
        expect(await probe.check('readiness')).toBe(ServingStatus.NOT_SERVING);
      } finally {
        probe.close();
        await own.close(100);
      }
      // Both ports are free again: a new server binds them.
      const again = await startEppServer({ transport, scheduler: { pick: (r, o) => scheduler.pick(r, o) }, pool, host: '127.0.0.1', port: own.port, healthPort: own.healthPort });
      await again.close(100);
    });

    it('fails to start, leaving nothing bound, when the health port is taken', async () => {
      await expect(startEppServer({ transport, scheduler: { pick: (r, o) => scheduler.pick(r, o) }, pool, host: '127.0.0.1', port: 0, healthPort: server.port })).rejects.toThrow();
    });
  });

  describe('server lifecycle', () => {
    it('serves the same replies with the proto-loader codec', async () => {
      const alt = await startEppServer({ transport, scheduler, pool, host: '127.0.0.1', port: 0, codec: 'proto-loader' });
      const client = new EnvoyEmulator(alt.port);
      try {
        const s = client.open();
        s.send(reqHeaders(HEADERS));
        s.send(reqBody(BODY.slice(0, 10), false));
        s.send(reqBody(BODY.slice(10), true));
        const replies = await s.waitFor(2);
        expect(describeReplies(replies)).toEqual(['request_headers', `request_body(${BODY.length},eos)`]);
        expect(setHeaders(replies[0]!.request_headers!.response.header_mutation)['x-gateway-destination-endpoint']).toBe('192.168.1.1:8000');
        s.cancel();
        await s.ended;
      } finally {
        client.close();
        await alt.close(1000);
      }
    });

    it('turns an exception inside message handling into a gRPC INTERNAL for that stream only', async () => {
      const empty = new EndpointPool();
      const buggy = await startEppServer({ transport, scheduler, pool: empty, host: '127.0.0.1', port: 0, observer: { onRejected: () => { throw new Error('observer bug'); } } });
      const client = new EnvoyEmulator(buggy.port);
      try {
        const s = client.open();
        s.send(reqHeaders({ ':method': 'GET', ':path': '/v1/models' }, true));
        expect((await s.ended).code).toBe(grpc.status.INTERNAL);
        expect(await client.check('liveness')).toBe(ServingStatus.SERVING);
      } finally {
        client.close();
        await buggy.close(1000);
      }
    });

    it('serves TLS when given a certificate', async () => {
      const tlsServer = await startEppServer({ transport, scheduler, pool, host: '127.0.0.1', port: 0, healthPort: 0, tls: { cert: TEST_CERT, key: TEST_KEY } });
      const client = new EnvoyEmulator(tlsServer.port, grpc.credentials.createSsl(Buffer.from(TEST_CERT)), { 'grpc.ssl_target_name_override': 'localhost' });
      // The probe port stays plaintext: Kubernetes gRPC probes cannot use TLS.
      const probe = new EnvoyEmulator(tlsServer.healthPort ?? -1);
      try {
        expect(await client.check('readiness')).toBe(ServingStatus.SERVING);
        expect(await probe.check('readiness')).toBe(ServingStatus.SERVING);
      } finally {
        client.close();
        probe.close();
        await tlsServer.close(1000);
      }
    });

    it('graceful shutdown answers queued requests 503 rejected-shutting-down and stops serving', async () => {
      const gated = new FakeScheduler(pool, { gated: true });
      let closed = 0;
      const local = await startEppServer({ transport, scheduler: gated, pool, host: '127.0.0.1', port: 0, onClose: () => { closed++; } });
      const client = new EnvoyEmulator(local.port);
      const s = client.open();
      s.send(reqHeaders(HEADERS));
      s.send(reqBody(BODY, true));
      await waitFor(() => gated.waiting > 0, { what: 'a held pick' });
      const closing = local.close(2000);
      const [reply] = await s.waitFor(1);
      expect(reply!.immediate_response!.status.code).toBe(503);
      expect(setHeaders(reply!.immediate_response!.headers)['x-llm-d-request-dropped-reason']).toBe('rejected-shutting-down');
      await closing;
      expect(closed).toBe(1);
      expect(local.health.statusOf('readiness')).toBe(ServingStatus.NOT_SERVING);
      expect(gated.waiting).toBe(0);
      client.close();
    });
  });
});
