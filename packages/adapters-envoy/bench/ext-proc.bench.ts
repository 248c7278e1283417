/*
 * ext_proc endpoint-picker benchmarks over one HTTP/2 connection to in-process servers on
 * 127.0.0.1: 64 endpoints with metrics, the real EndpointPicker with default scorers, a raw
 * node:http2 "Envoy" sending pre-encoded messages (so the client costs as little as possible).
 *
 * Baselines in the same run: a bare node:http2 server and a bare grpc-js server answering with the
 * same reply bytes, without any ext_proc logic. "CPU µs/exchange" is process CPU (client + server)
 * per request; the difference to the baselines is what the picker adds.
 *
 * Run: npx vitest bench --run packages/adapters-envoy/bench/ext-proc.bench.ts
 * Results: docs/benchmarks/envoy.md.
 */
import { createServer, type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { EndpointPicker, EndpointPool, ManualClock, createDefaultRegistry, parseRequest, type Decision, type InferenceRequest, type RequestScheduler } from '@switchyard/core';
import { registerPrefixIndexPlugins } from '@switchyard/prefix-index';
import { encodeProcessingRequest, startEppServer, type EppServer, type ProcessingRequest } from '@switchyard/envoy';
import { afterAll, beforeAll, bench, describe } from 'vitest';
import { RawEnvoy, grpcFrame } from '../src/test-support/raw-envoy.js';
import { reqBody, reqHeaders, respHeaders } from '../src/test-support/wire-helpers.js';

const clock = new ManualClock();
const pool = new EndpointPool();
for (let i = 0; i < 64; i++) {
  const address = `10.0.${i >> 4}.${(i & 15) + 1}:8000`;
  pool.add({ address });
  pool.setMetrics(address, {
    waitingQueueSize: (i * 7) % 11, runningRequestsSize: 4, kvCacheUsagePercent: ((i * 13) % 90) / 100, activeModels: [], waitingModels: [],
    maxActiveModels: 0, cacheBlockSize: 16, cacheNumBlocks: 8192, updatedAt: 0,
  });
}
const picker = new EndpointPicker({ pool, clock });

function chatBody(bytes: number): string {
  const shell = JSON.stringify({ model: 'meta-llama/Llama-3.1-8B-Instruct', stream: true, max_tokens: 256, messages: [{ role: 'system', content: '' }, { role: 'user', content: '' }] });
  const room = bytes - shell.length;
  const system = 'You are a careful assistant who explains routing. '.repeat(Math.ceil(room / 50)).slice(0, Math.floor(room * 0.75));
  const user = 'Why did the gateway pick this endpoint? '.repeat(Math.ceil(room / 40)).slice(0, room - system.length);
  return JSON.stringify({ model: 'meta-llama/Llama-3.1-8B-Instruct', stream: true, max_tokens: 256, messages: [{ role: 'system', content: system }, { role: 'user', content: user }] });
}

const HEADERS = { ':method': 'POST', ':path': '/v1/chat/completions', ':authority': 'gateway', 'content-type': 'application/json', 'x-request-id': 'bench', 'user-agent': 'bench/1.0' };

/** Envoy's messages for one request: headers, the body in `chunk`-byte pieces; then the response headers. */
function framesFor(body: string, chunk: number): { request: Buffer[]; after: Buffer[]; replies: number } {
  const enc = (m: ProcessingRequest): Buffer => grpcFrame(encodeProcessingRequest(m));
  const bytes = Buffer.from(body);
  const request = [enc(reqHeaders(HEADERS))];
  for (let i = 0; i < bytes.length; i += chunk) request.push(enc(reqBody(bytes.subarray(i, i + chunk), i + chunk >= bytes.length)));
  return { request, after: [enc(respHeaders({ ':status': '204' }, true))], replies: 1 + Math.ceil(bytes.length / 62_000) };
}

const SMALL = framesFor(chatBody(4096), 16_384);
const LARGE = framesFor(chatBody(800_000), 65_536);
const LARGE_BYTES = Buffer.byteLength(chatBody(800_000));

/** Canned-reply servers: the transport's cost with no ext_proc logic at all. */
function h2Echo(replies: readonly Buffer[], expect: number): Promise<Http2Server> {
  const server = createServer();
  server.on('stream', (stream) => {
    stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
    stream.on('wantTrailers', () => { stream.sendTrailers({ 'grpc-status': '0' }); });
    let seen = 0;
    let pending: Buffer | undefined;
    stream.on('data', (c: Buffer) => {
      pending = pending === undefined ? c : Buffer.concat([pending, c]);
      while (pending.length >= 5 && pending.length >= 5 + pending.readUInt32BE(1)) {
        pending = pending.subarray(5 + pending.readUInt32BE(1));
        if (++seen === expect) for (const r of replies) stream.write(r);
      }
    });
    stream.on('end', () => stream.end());
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => { resolve(server); }));
}

async function grpcCanned(replies: readonly Buffer[], expect: number): Promise<{ server: grpc.Server; port: number }> {
  const id = (b: Buffer): Buffer => b;
  const server = new grpc.Server();
  const payloads = replies.map((r) => r.subarray(5));
  server.addService(
    { Process: { path: '/envoy.service.ext_proc.v3.ExternalProcessor/Process', requestStream: true, responseStream: true, requestSerialize: id, requestDeserialize: id, responseSerialize: id, responseDeserialize: id, originalName: 'process' } },
    {
      Process(call: grpc.ServerDuplexStream<Buffer, Buffer>) {
        let seen = 0;
        call.on('data', () => { if (++seen === expect) for (const p of payloads) call.write(p); });
        call.on('end', () => { call.end(); });
      },
    },
  );
  const port = await new Promise<number>((resolve) => { server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (_e, p) => { resolve(p); }); });
  return { server, port };
}

/** Captures the EPP's reply frames for a request, to feed the canned baselines the same bytes. */
async function captureReplies(port: number, f: typeof SMALL): Promise<Buffer[]> {
  const envoy = new RawEnvoy(port);
  const replies = await envoy.exchange(f.request, f.replies, f.after);
  envoy.close();
  return replies.map((r) => grpcFrame(r));
}

const stats = new Map<string, { cpu: number; n: number; wall: number }>();
function measured(name: string, per: number, fn: () => Promise<unknown>): () => Promise<void> {
  return async () => {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await fn();
    const c = process.cpuUsage(c0);
    const s = stats.get(name) ?? { cpu: 0, n: 0, wall: 0 };
    s.cpu += c.user + c.system;
    s.n += per;
    s.wall += performance.now() - t0;
    stats.set(name, s);
  };
}

let prefixPicker: EndpointPicker;
let eppPicker: EppServer;
let eppPrefix: EppServer;
let eppFixed: EppServer;
const closers: (() => Promise<void> | void)[] = [];
const clients = new Map<string, RawEnvoy>();

beforeAll(async () => {
  const first = await picker.pick(parseRequest({ path: '/v1/chat/completions', headers: {}, body: chatBody(4096) }));
  first.complete({ kind: 'cancelled' });
  const fixed: RequestScheduler = {
    pick: (request: InferenceRequest): Promise<Decision> =>
      Promise.resolve({ ...first, request: { ...first.request, request, id: request.id }, body: request.rawBody, complete: () => undefined, onResponseStart: () => undefined, onUsage: () => undefined }),
  };
  prefixPicker = new EndpointPicker({ pool, clock, registry: await registerPrefixIndexPlugins(createDefaultRegistry()) });
  eppPicker = await startEppServer({ scheduler: picker, pool, host: '127.0.0.1', port: 0 });
  eppPrefix = await startEppServer({ scheduler: prefixPicker, pool, host: '127.0.0.1', port: 0 });
  closers.push(() => eppPrefix.close(1000));
  eppFixed = await startEppServer({ scheduler: fixed, pool, host: '127.0.0.1', port: 0 });
  closers.push(() => eppPicker.close(1000), () => eppFixed.close(1000));
  const smallReplies = await captureReplies(eppPicker.port, SMALL);
  const largeReplies = await captureReplies(eppPicker.port, LARGE);
  const servers = {
    'h2-small': await h2Echo(smallReplies, SMALL.request.length),
    'h2-large': await h2Echo(largeReplies, LARGE.request.length),
  };
  const grpcSmall = await grpcCanned(smallReplies, SMALL.request.length);
  closers.push(() => { grpcSmall.server.forceShutdown(); });
  for (const [k, s] of Object.entries(servers)) {
    clients.set(k, new RawEnvoy((s.address() as AddressInfo).port));
    closers.push(() => new Promise<void>((r) => { s.close(() => { r(); }); }));
  }
  clients.set('grpc-small', new RawEnvoy(grpcSmall.port));
  clients.set('epp-picker', new RawEnvoy(eppPicker.port));
  clients.set('epp-fixed', new RawEnvoy(eppFixed.port));
  clients.set('epp-prefix', new RawEnvoy(eppPrefix.port));
});

afterAll(async () => {
  for (const c of clients.values()) c.close();
  for (const close of closers) await close();
  const rows = [...stats].map(([name, s]) => `${name.padEnd(58)} ${(s.cpu / s.n).toFixed(0).padStart(8)} µs CPU/req ${(s.n / (s.wall / 1000)).toFixed(0).padStart(8)} req/s wall`);
  console.log(`\nCPU per request (client + server, this process)\n${rows.join('\n')}\n`);
});

const run = (client: string, f: typeof SMALL) => (): Promise<Buffer[]> => {
  const c = clients.get(client);
  if (c === undefined) throw new Error(`no client ${client}`);
  return c.exchange(f.request, f.replies, f.after);
};
const times = (n: number, fn: () => Promise<unknown>) => () => Promise.all(Array.from({ length: n }, fn));
const OPTS = { time: 1500, warmupTime: 300 };

describe('4 KB body, 64 endpoints, 1 in flight (latency = Envoy holding the request)', () => {
  bench('baseline: node:http2 canned replies', measured('4K 1x baseline node:http2 canned', 1, run('h2-small', SMALL)), OPTS);
  bench('baseline: grpc-js canned replies', measured('4K 1x baseline grpc-js canned', 1, run('grpc-small', SMALL)), OPTS);
  bench('EPP, constant decision (codec + state machine + gRPC)', measured('4K 1x EPP constant decision', 1, run('epp-fixed', SMALL)), OPTS);
  bench('EPP, default picker', measured('4K 1x EPP default picker', 1, run('epp-picker', SMALL)), OPTS);
  bench('EPP, default picker + approximate prefix index', measured('4K 1x EPP default picker + prefix', 1, run('epp-prefix', SMALL)), OPTS);
  bench('in-process parse + pick, no transport', measured('4K 1x in-process parse+pick', 1, async () => {
    const d = await picker.pick(parseRequest({ path: '/v1/chat/completions', headers: HEADERS, body: SMALL_BODY }));
    d.complete({ kind: 'success' });
  }), OPTS);
});

const SMALL_BODY = Buffer.from(chatBody(4096));

describe('4 KB body, 64 endpoints, 32 in flight (throughput: ×32 per iteration)', () => {
  bench('baseline: node:http2 canned replies ×32', measured('4K 32x baseline node:http2 canned', 32, times(32, run('h2-small', SMALL))), OPTS);
  bench('baseline: grpc-js canned replies ×32', measured('4K 32x baseline grpc-js canned', 32, times(32, run('grpc-small', SMALL))), OPTS);
  bench('EPP, constant decision ×32', measured('4K 32x EPP constant decision', 32, times(32, run('epp-fixed', SMALL))), OPTS);
  bench('EPP, default picker ×32', measured('4K 32x EPP default picker', 32, times(32, run('epp-picker', SMALL))), OPTS);
  bench('EPP, default picker + approximate prefix index ×32', measured('4K 32x EPP default picker + prefix', 32, times(32, run('epp-prefix', SMALL))), OPTS);
});

describe(`800 KB body (${LARGE_BYTES} B, 64 KiB chunks), 64 endpoints`, () => {
  const parsed = parseRequest({ path: '/v1/chat/completions', headers: HEADERS, body: Buffer.from(chatBody(800_000)) });
  bench('parseRequest only', measured('800K parseRequest', 1, () => Promise.resolve(parseRequest({ path: '/v1/chat/completions', headers: HEADERS, body: parsed.rawBody }))), OPTS);
  bench('pick only (parsed)', measured('800K pick (parsed)', 1, async () => {
    const d = await picker.pick(parsed);
    d.complete({ kind: 'success' });
  }), OPTS);
  bench('pick with prefix index (parsed: hash + match + score)', measured('800K pick + prefix (parsed)', 1, async () => {
    const d = await prefixPicker.pick(parsed);
    d.complete({ kind: 'success' });
  }), OPTS);
  bench('baseline: node:http2 canned replies', measured('800K baseline node:http2 canned', 1, run('h2-large', LARGE)), OPTS);
  bench('EPP, constant decision (receive + re-send)', measured('800K EPP constant decision', 1, run('epp-fixed', LARGE)), OPTS);
  bench('EPP, default picker', measured('800K EPP default picker', 1, run('epp-picker', LARGE)), OPTS);
  bench('EPP, default picker + approximate prefix index', measured('800K EPP default picker + prefix', 1, run('epp-prefix', LARGE)), OPTS);
});
