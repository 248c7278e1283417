import { connect, type ClientHttp2Session } from 'node:http2';
import { EndpointPool, ManualClock } from '@switchyard/core';
import { FakeScheduler, waitFor } from '@switchyard/core/testing';
import { startEppServer, type EppServer } from '@switchyard/envoy';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeProcessingRequest } from '../codec/request.js';
import { TRANSPORTS } from '../test-support/transports.js';
import { grpcFrame } from '../test-support/raw-envoy.js';
import { reqBody, reqHeaders } from '../test-support/wire-helpers.js';
import { parseGrpcTimeout } from './http2/deadline.js';

const PROCESS = '/envoy.service.ext_proc.v3.ExternalProcessor/Process';
const HEADERS = { ':method': 'POST', ':path': '/v1/completions', 'content-type': 'application/json', 'x-request-id': 'd-1' };
const BODY = '{"model":"my-model","prompt":"hello"}';

/** A Process call sending `grpc-timeout` (as Envoy does when its gRPC service has a timeout); resolves with the gRPC status. */
function processWithTimeout(session: ClientHttp2Session, timeout: string, halfClose: boolean): { status: Promise<{ code: number; message: string }> } {
  const stream = session.request({ ':method': 'POST', ':path': PROCESS, 'content-type': 'application/grpc', te: 'trailers', 'grpc-timeout': timeout });
  stream.on('error', () => undefined);
  const status = new Promise<{ code: number; message: string }>((resolve) => {
    const read = (h: Record<string, string | string[] | undefined>): void => {
      if (h['grpc-status'] !== undefined) resolve({ code: Number(h['grpc-status']), message: decodeURIComponent([h['grpc-message'] ?? ''].flat().join(',')) });
    };
    stream.on('response', read);
    stream.on('trailers', read);
    stream.on('close', () => { resolve({ code: -1, message: 'closed without a status' }); });
  });
  stream.resume();
  stream.write(grpcFrame(encodeProcessingRequest(reqHeaders(HEADERS))));
  stream.write(grpcFrame(encodeProcessingRequest(reqBody(BODY, true))));
  if (halfClose) stream.end();
  return { status };
}

describe('parseGrpcTimeout', () => {
  it('reads every unit of the gRPC spec in milliseconds, sub-millisecond values rounded up', () => {
    expect(parseGrpcTimeout('2H')).toEqual({ ok: true, ms: 7_200_000 });
    expect(parseGrpcTimeout('3M')).toEqual({ ok: true, ms: 180_000 });
    expect(parseGrpcTimeout('1000S')).toEqual({ ok: true, ms: 1_000_000 });
    expect(parseGrpcTimeout('250m')).toEqual({ ok: true, ms: 250 });
    expect(parseGrpcTimeout('1500u')).toEqual({ ok: true, ms: 2 });
    expect(parseGrpcTimeout('99999999n')).toEqual({ ok: true, ms: 100 });
    expect(parseGrpcTimeout('1n')).toEqual({ ok: true, ms: 1 });
    expect(parseGrpcTimeout('0S')).toEqual({ ok: true, ms: 0 });
  });

  it('refuses anything else, naming the header', () => {
    for (const bad of ['', 'S', '10', '10s', '123456789S', '-1S', '1.5S', '10 S', 'abc']) {
      const r = parseGrpcTimeout(bad);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.message).toContain('grpc-timeout');
    }
  });
});

describe.each(TRANSPORTS)('grpc-timeout on the %s transport', (transport) => {
  const pool = new EndpointPool();
  pool.add({ address: '192.168.1.1:8000' });
  let server: EppServer | undefined;
  let session: ClientHttp2Session | undefined;

  afterEach(async () => {
    session?.close();
    await server?.close(100);
    server = undefined;
  });

  async function start(scheduler: FakeScheduler, clock?: ManualClock): Promise<ClientHttp2Session> {
    server = await startEppServer({ transport, scheduler, pool, host: '127.0.0.1', port: 0, ...(clock === undefined ? {} : { clock }) });
    session = connect(`http://127.0.0.1:${server.port}`);
    session.on('error', () => undefined);
    return session;
  }

  it('ends a call still waiting for its pick with DEADLINE_EXCEEDED and cancels the pick', async () => {
    const scheduler = new FakeScheduler(pool, { gated: true });
    const call = processWithTimeout(await start(scheduler), '20m', false);
    expect(await call.status).toEqual({ code: 4, message: 'Deadline exceeded' });
    await waitFor(() => scheduler.waiting === 0 && server?.stats().activeStreams === 0, { what: 'the held pick aborted and the stream gone' });
    expect(scheduler.decisions).toHaveLength(0);
    expect(pool.list()[0]?.inFlightRequests).toBe(0);
  });

  it('answers a malformed grpc-timeout with INTERNAL before running the call', async () => {
    const scheduler = new FakeScheduler(pool);
    const call = processWithTimeout(await start(scheduler), 'soon', true);
    const status = await call.status;
    expect(status.code).toBe(13);
    expect(status.message).toContain('grpc-timeout');
    expect(scheduler.decisions).toHaveLength(0);
  });
});

describe('grpc-timeout on the http2 transport, on the injected clock', () => {
  const pool = new EndpointPool();
  pool.add({ address: '192.168.1.1:8000' });

  it('fires when the clock reaches the deadline, not before, and a call that ended clears its timer', async () => {
    const clock = new ManualClock();
    const scheduler = new FakeScheduler(pool, { gated: true });
    const server = await startEppServer({ transport: 'http2', scheduler, pool, host: '127.0.0.1', port: 0, clock });
    const session = connect(`http://127.0.0.1:${server.port}`);
    session.on('error', () => undefined);
    try {
      const held = processWithTimeout(session, '5S', false);
      await waitFor(() => scheduler.waiting === 1, { what: 'the pick held' });
      const deadlineAt = clock.nextTimerAt();
      expect(deadlineAt).toBe(5000);
      clock.advance(4999);
      expect(scheduler.waiting).toBe(1);
      clock.advance(1);
      expect(await held.status).toEqual({ code: 4, message: 'Deadline exceeded' });
      await waitFor(() => scheduler.waiting === 0, { what: 'the pick aborted' });

      // A call that completes in time: OK, and its deadline timer is gone.
      scheduler.release();
      const quick = processWithTimeout(session, '1H', true);
      expect((await quick.status).code).toBe(0);
      await waitFor(() => server.stats().activeStreams === 0, { what: 'the stream closed' });
      expect(clock.nextTimerAt()).toBeUndefined();
    } finally {
      session.close();
      await server.close(100);
    }
  });
});
