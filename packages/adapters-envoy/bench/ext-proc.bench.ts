/*
 * ext_proc endpoint-picker benchmarks over one HTTP/2 connection per server on 127.0.0.1: 64
 * endpoints with metrics, the real EndpointPicker, and a raw node:http2 "Envoy"
 * in a worker thread, sending pre-encoded messages. Baselines in the same run: a bare node:http2
 * server and a bare grpc-js server answering with the very bytes the EPP answers, with no ext_proc
 * logic. Every EPP row is grpc-js unless it says http2 transport (the same schedulers behind
 * `transport: 'http2'`). Scenarios run interleaved in short slices (see harness.ts).
 *
 * Run: npx vitest bench --run packages/adapters-envoy/bench/ext-proc.bench.ts
 * Results: docs/benchmarks/envoy.md.
 */
import { EndpointPicker, EndpointPool, ManualClock, createDefaultRegistry, parseRequest, type Decision, type InferenceRequest, type RequestScheduler } from '@switchyard/core';
import { encodeProcessingRequest, startEppServer, type ProcessingRequest } from '@switchyard/envoy';
import { registerPrefixIndexPlugins } from '@switchyard/prefix-index';
import { bench, describe } from 'vitest';
import { RawEnvoy, grpcFrame } from '../src/test-support/raw-envoy.js';
import { reqBody, reqHeaders, respHeaders } from '../src/test-support/wire-helpers.js';
import { grpcCanned, h2Canned, interleave, table, type Frames, type Scenario } from './harness.js';
import { WorkerClient } from './worker-client.js';

const ROUNDS = Number(process.env.EPP_BENCH_ROUNDS ?? 6);
const SLICE_MS = Number(process.env.EPP_BENCH_SLICE_MS ?? 400);

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

function chatBody(bytes: number): string {
  const shell = JSON.stringify({ model: 'meta-llama/Llama-3.1-8B-Instruct', stream: true, max_tokens: 256, messages: [{ role: 'system', content: '' }, { role: 'user', content: '' }] });
  const room = bytes - shell.length;
  const system = 'You are a careful assistant who explains routing. '.repeat(Math.ceil(room / 50)).slice(0, Math.floor(room * 0.75));
  const user = 'Why did the gateway pick this endpoint? '.repeat(Math.ceil(room / 40)).slice(0, room - system.length);
  return JSON.stringify({ model: 'meta-llama/Llama-3.1-8B-Instruct', stream: true, max_tokens: 256, messages: [{ role: 'system', content: system }, { role: 'user', content: user }] });
}

const HEADERS = { ':method': 'POST', ':path': '/v1/chat/completions', ':authority': 'gateway', 'content-type': 'application/json', 'x-request-id': 'bench', 'user-agent': 'bench/1.0' };

/** Envoy's messages for one request: headers, the body in `chunk`-byte pieces; after the replies, response headers with eos. */
function framesFor(body: Buffer, chunk: number): Frames {
  const enc = (m: ProcessingRequest): Buffer => grpcFrame(encodeProcessingRequest(m));
  const request = [enc(reqHeaders(HEADERS))];
  for (let i = 0; i < body.length; i += chunk) request.push(enc(reqBody(body.subarray(i, i + chunk), i + chunk >= body.length)));
  return { request, after: [enc(respHeaders({ ':status': '204' }, true))], replies: 1 + Math.ceil(body.length / 62_000) };
}

const SMALL_BODY = Buffer.from(chatBody(4096));
const LARGE_BODY = Buffer.from(chatBody(800_000));
const SMALL = framesFor(SMALL_BODY, 16_384);
const LARGE = framesFor(LARGE_BODY, 65_536);

async function setup() {
  const picker = new EndpointPicker({ pool, clock });
  const prefixPicker = new EndpointPicker({ pool, clock, registry: registerPrefixIndexPlugins(createDefaultRegistry()) });
  const first = await picker.pick(parseRequest({ path: '/v1/chat/completions', headers: {}, body: SMALL_BODY }));
  first.complete({ kind: 'cancelled' });
  // Same decision shape every time, no scheduling: the protocol path alone.
  const constant: RequestScheduler = {
    pick: (request: InferenceRequest): Promise<Decision> =>
      Promise.resolve({ ...first, request: { ...first.request, request, id: request.id }, body: request.rawBody, complete: () => undefined, onResponseStart: () => undefined, onUsage: () => undefined }),
  };
  const servers = {
    constant: await startEppServer({ transport: 'grpc-js', scheduler: constant, pool, host: '127.0.0.1', port: 0 }),
    picker: await startEppServer({ transport: 'grpc-js', scheduler: picker, pool, host: '127.0.0.1', port: 0 }),
    prefix: await startEppServer({ transport: 'grpc-js', scheduler: prefixPicker, pool, host: '127.0.0.1', port: 0 }),
    // The same schedulers behind the http2 transport: the transport's cost, same run.
    constantH2: await startEppServer({ transport: 'http2', scheduler: constant, pool, host: '127.0.0.1', port: 0 }),
    pickerH2: await startEppServer({ transport: 'http2', scheduler: picker, pool, host: '127.0.0.1', port: 0 }),
  };
  const capture = async (f: Frames): Promise<Buffer[]> => {
    const c = new RawEnvoy(servers.picker.port);
    const replies = await c.exchange(f.request, f.replies, f.after);
    c.close();
    return replies.map((r) => grpcFrame(r));
  };
  const smallReplies = await capture(SMALL);
  const largeReplies = await capture(LARGE);
  const baselines = {
    h2Small: await h2Canned(smallReplies, SMALL.request.length),
    h2Large: await h2Canned(largeReplies, LARGE.request.length),
    grpcSmall: await grpcCanned(smallReplies, SMALL.request.length),
  };
  const ports = {
    constant: servers.constant.port,
    picker: servers.picker.port,
    prefix: servers.prefix.port,
    constantH2: servers.constantH2.port,
    pickerH2: servers.pickerH2.port,
    h2Small: baselines.h2Small.port,
    h2Large: baselines.h2Large.port,
    grpcSmall: baselines.grpcSmall.port,
  };
  const client = new WorkerClient();
  const close = async (): Promise<void> => {
    await client.close();
    await Promise.all(Object.values(servers).map((s) => s.close(1000)));
    await baselines.h2Small.close();
    await baselines.h2Large.close();
    baselines.grpcSmall.close();
  };
  return { picker, prefixPicker, ports, client, close };
}

describe('ext_proc endpoint picker', () => {
  bench(
    'interleaved scenarios (table printed below)',
    async () => {
      const { picker, prefixPicker, ports, client, close } = await setup();
      const parsedLarge = parseRequest({ path: '/v1/chat/completions', headers: HEADERS, body: LARGE_BODY });
      const pickDone = (d: Decision): void => { d.complete({ kind: 'success' }); };
      const small: Scenario[] = [1, 32].flatMap((n) => [
        { name: '4 KB · baseline: node:http2, canned replies', concurrency: n, remote: { port: ports.h2Small, frames: SMALL } },
        { name: '4 KB · baseline: grpc-js, canned replies', concurrency: n, remote: { port: ports.grpcSmall, frames: SMALL } },
        { name: '4 KB · EPP, constant decision', concurrency: n, remote: { port: ports.constant, frames: SMALL } },
        { name: '4 KB · EPP, default picker', concurrency: n, remote: { port: ports.picker, frames: SMALL } },
        { name: '4 KB · EPP http2 transport, constant decision', concurrency: n, remote: { port: ports.constantH2, frames: SMALL } },
        { name: '4 KB · EPP http2 transport, default picker', concurrency: n, remote: { port: ports.pickerH2, frames: SMALL } },
        { name: '4 KB · EPP, default picker + prefix index', concurrency: n, remote: { port: ports.prefix, frames: SMALL } },
      ]);
      const inProcess: Scenario[] = [
        { name: '4 KB · in-process parseRequest + pick', concurrency: 1, run: () => picker.pick(parseRequest({ path: '/v1/chat/completions', headers: HEADERS, body: SMALL_BODY })).then(pickDone) },
        { name: '4 KB · in-process parseRequest + pick + prefix index', concurrency: 1, run: () => prefixPicker.pick(parseRequest({ path: '/v1/chat/completions', headers: HEADERS, body: SMALL_BODY })).then(pickDone) },
        { name: '800 KB · in-process parseRequest', concurrency: 1, run: () => Promise.resolve(parseRequest({ path: '/v1/chat/completions', headers: HEADERS, body: LARGE_BODY })) },
        { name: '800 KB · in-process pick (default scorers)', concurrency: 1, run: () => picker.pick(parsedLarge).then(pickDone) },
        { name: '800 KB · in-process pick + prefix index (hash, match, score)', concurrency: 1, run: () => prefixPicker.pick(parsedLarge).then(pickDone) },
      ];
      const large: Scenario[] = [
        { name: '800 KB · baseline: node:http2, canned replies', concurrency: 1, remote: { port: ports.h2Large, frames: LARGE } },
        { name: '800 KB · EPP, constant decision', concurrency: 1, remote: { port: ports.constant, frames: LARGE } },
        { name: '800 KB · EPP, default picker', concurrency: 1, remote: { port: ports.picker, frames: LARGE } },
        { name: '800 KB · EPP http2 transport, constant decision', concurrency: 1, remote: { port: ports.constantH2, frames: LARGE } },
        { name: '800 KB · EPP http2 transport, default picker', concurrency: 1, remote: { port: ports.pickerH2, frames: LARGE } },
        { name: '800 KB · EPP, default picker + prefix index', concurrency: 1, remote: { port: ports.prefix, frames: LARGE } },
      ];
      try {
        const results = await interleave([...small, ...inProcess, ...large], ROUNDS, SLICE_MS, client);
        console.log(`\n${table(results)}\n\n800 KB body = ${LARGE_BODY.length} bytes; MB/s = req/s × ${(LARGE_BODY.length / 1e6).toFixed(3)}\n`);
      } finally {
        await close();
      }
    },
    { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 },
  );
});
