/*
 * The http2 transport at the HTTP/2 level, with a raw node:http2 client: what a gRPC library
 * would hide (framing across DATA frames, status trailers, RST_STREAM, flow control).
 */
import { connect, constants, type ClientHttp2Session, type ClientHttp2Stream, type IncomingHttpHeaders } from 'node:http2';
import { EndpointPool } from '@switchyard/core';
import { FakeScheduler, waitFor } from '@switchyard/core/testing';
import { startEppServer, type EppServer } from '@switchyard/envoy';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { decodeProcessingResponse, encodeProcessingRequest } from '../../codec/index.js';
import type { ProcessingRequest } from '../../wire/messages.js';
import { describeReplies, reqBody, reqHeaders, respHeaders } from '../../test-support/wire-helpers.js';
import { GrpcMessageDecoder, encodeGrpcMessage } from './frames.js';

const HEADERS = { ':method': 'POST', ':path': '/v1/completions', 'content-type': 'application/json' };
const BODY = '{"model":"my-model","prompt":"hello"}';
const PROCESS = '/envoy.service.ext_proc.v3.ExternalProcessor/Process';

const pool = new EndpointPool();
pool.add({ address: '10.0.0.1:8000' });
let scheduler = new FakeScheduler(pool);
let server: EppServer;
let session: ClientHttp2Session;

beforeAll(async () => {
  server = await startEppServer({ transport: 'http2', scheduler: { pick: (r, o) => scheduler.pick(r, o) }, pool, host: '127.0.0.1', port: 0, maxBodyBytes: 100_000 });
  session = connect(`http://127.0.0.1:${server.port}`);
});

afterAll(async () => {
  session.close();
  await server.close(100);
});

afterEach(() => {
  scheduler = new FakeScheduler(pool);
});

const frame = (m: ProcessingRequest): Buffer => encodeGrpcMessage(encodeProcessingRequest(m));

/** One call: what came back, as the client saw it. */
interface Call {
  readonly stream: ClientHttp2Stream;
  readonly replies: string[];
  headers: IncomingHttpHeaders | undefined;
  trailers: IncomingHttpHeaders | undefined;
  readonly closed: Promise<void>;
}

function open(path = PROCESS, headers: Record<string, string> = {}, from: ClientHttp2Session = session): Call {
  const stream = from.request({ ':method': 'POST', ':path': path, 'content-type': 'application/grpc', te: 'trailers', ...headers });
  const decoder = new GrpcMessageDecoder(Number.MAX_SAFE_INTEGER);
  const call: Call = { stream, replies: [], headers: undefined, trailers: undefined, closed: new Promise<void>((resolve) => { stream.on('close', () => { resolve(); }); }) };
  stream.on('response', (h) => { call.headers = h; });
  stream.on('trailers', (t: IncomingHttpHeaders) => { call.trailers = t; });
  stream.on('data', (chunk: Buffer) => {
    for (const m of decoder.push(chunk)) call.replies.push(...describeReplies([decodeProcessingResponse(m)]));
  });
  stream.on('error', () => undefined);
  return call;
}

/** The gRPC status: from trailers, or from the headers of a trailers-only response. */
const status = (c: Call): string | undefined => (c.trailers ?? c.headers)?.['grpc-status'] as string | undefined;

describe('http2 transport on the wire', () => {
  it('decodes several messages sent in one DATA frame, and answers with status 0 in trailers', async () => {
    const c = open();
    c.stream.write(Buffer.concat([frame(reqHeaders(HEADERS)), frame(reqBody(BODY, true))]));
    await waitFor(() => c.replies.length === 2, { what: 'the header and body replies' });
    expect(c.replies).toEqual(['request_headers', `request_body(${BODY.length},eos)`]);
    expect(c.headers).toMatchObject({ ':status': 200, 'content-type': 'application/grpc' });
    c.stream.end();
    await c.closed;
    expect(status(c)).toBe('0');
  });

  it('decodes a message split into one-byte DATA frames', async () => {
    const c = open();
    const bytes = Buffer.concat([frame(reqHeaders(HEADERS)), frame(reqBody(BODY, true))]);
    for (let i = 0; i < bytes.length; i++) c.stream.write(bytes.subarray(i, i + 1));
    await waitFor(() => c.replies.length === 2, { what: 'the replies' });
    expect(c.replies).toEqual(['request_headers', `request_body(${BODY.length},eos)`]);
    c.stream.close(constants.NGHTTP2_CANCEL);
    await c.closed;
  });

  it('answers an unknown method UNIMPLEMENTED in a trailers-only response', async () => {
    const c = open('/envoy.service.ext_proc.v3.ExternalProcessor/Nope');
    c.stream.end(frame(reqHeaders(HEADERS)));
    await c.closed;
    expect(c.headers).toMatchObject({ ':status': 200, 'grpc-status': '12', 'grpc-message': 'unknown method /envoy.service.ext_proc.v3.ExternalProcessor/Nope' });
  });

  it('answers HTTP 415 to a request that is not gRPC', async () => {
    const c = open(PROCESS, { 'content-type': 'application/json' });
    c.stream.end('{}');
    await c.closed;
    expect(c.headers?.[':status']).toBe(415);
  });

  it('refuses a message over the size limit RESOURCE_EXHAUSTED from its prefix, and a compressed one UNIMPLEMENTED', async () => {
    const big = open();
    // 8 MiB announced (the limit is 4 MiB, or maxBodyBytes + 64 KiB when larger), nothing sent.
    const prefix = Buffer.from([0, 0, 0x80, 0, 0]);
    big.stream.write(prefix);
    await big.closed;
    expect(status(big)).toBe('8');
    const packed = open();
    const compressed = frame(reqHeaders(HEADERS));
    compressed[0] = 1;
    packed.stream.write(compressed);
    await packed.closed;
    expect(status(packed)).toBe('12');
    await waitFor(() => server.stats().activeStreams === 0, { what: 'both calls released' });
  });

  it('a RST_STREAM while the pick is queued aborts it and leaks nothing', async () => {
    scheduler = new FakeScheduler(pool, { gated: true });
    const c = open();
    c.stream.write(Buffer.concat([frame(reqHeaders(HEADERS)), frame(reqBody(BODY, true))]));
    await waitFor(() => scheduler.waiting === 1, { what: 'a held pick' });
    c.stream.close(constants.NGHTTP2_CANCEL);
    await waitFor(() => server.stats().activeStreams === 0, { what: 'the call released' });
    expect(scheduler.waiting).toBe(0);
    expect(pool.list()[0]?.inFlightRequests).toBe(0);
  });

  it('stops reading a proxy that does not read its replies, and goes on once it does', async () => {
    // A proxy that grants no window: replies stay in the server's send buffer.
    const slow = connect(`http://127.0.0.1:${server.port}`, { settings: { initialWindowSize: 0 } });
    try {
      const c = open(PROCESS, {}, slow);
      // The 50 KB body echoed back fills the send buffer (16 KiB): the server stops reading.
      const body = JSON.stringify({ model: 'my-model', prompt: 'x'.repeat(50_000) });
      c.stream.write(Buffer.concat([frame(reqHeaders(HEADERS)), frame(reqBody(body, true))]));
      await waitFor(() => scheduler.decisions.length === 1, { what: 'a decision' });
      c.stream.write(frame(respHeaders({ ':status': '200', 'content-type': 'text/plain' })));
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
      expect(c.replies).toEqual([]);
      expect(scheduler.decisions[0]?.starts).toEqual([]); // the response headers message is not read yet
      slow.settings({ initialWindowSize: 1024 * 1024 });
      await waitFor(() => c.replies.length === 3, { what: 'the replies once the window opens' });
      expect(c.replies).toEqual(['request_headers', `request_body(${body.length},eos)`, 'response_headers']);
      expect(scheduler.decisions[0]?.starts).toHaveLength(1);
      c.stream.close(constants.NGHTTP2_CANCEL);
      await c.closed;
    } finally {
      slow.close();
    }
  });
});
