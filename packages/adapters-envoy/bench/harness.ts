/*
 * Benchmark harness for the ext_proc server: canned-reply baseline servers and an interleaved
 * runner. The machine is shared, so scenarios run in short alternating slices (A B C A B C ...)
 * and every statistic is taken over slices; contention then hits all scenarios alike. The client
 * runs in a worker thread; the serving thread's busy time (event-loop utilisation) per request is
 * what a server costs, independent of the client.
 */
import { createServer, type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { GrpcFrameParser } from '../src/test-support/raw-envoy.js';
import type { WorkerClient } from './worker-client.js';

/** Pre-encoded Envoy messages of one request. */
export interface Frames {
  readonly request: Buffer[];
  readonly after: Buffer[];
  readonly replies: number;
}

/** A node:http2 server answering every stream with `replies` once `expect` messages arrived. */
export async function h2Canned(replies: readonly Buffer[], expect: number): Promise<{ port: number; close: () => Promise<void> }> {
  const server: Http2Server = createServer();
  server.on('stream', (stream) => {
    stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
    stream.on('wantTrailers', () => { stream.sendTrailers({ 'grpc-status': '0' }); });
    let seen = 0;
    const parser = new GrpcFrameParser();
    stream.on('data', (c: Buffer) => {
      seen += parser.push(c).length;
      if (seen === expect) for (const r of replies) stream.write(r);
    });
    stream.on('end', () => stream.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => { resolve(); }));
  return { port: (server.address() as AddressInfo).port, close: () => new Promise<void>((r) => { server.close(() => { r(); }); }) };
}

/** A bare grpc-js server (identity codec) answering with the same payloads. */
export async function grpcCanned(replies: readonly Buffer[], expect: number): Promise<{ port: number; close: () => void }> {
  const id = (b: Buffer): Buffer => b;
  const server = new grpc.Server();
  const payloads = replies.map((r) => r.subarray(5));
  const method = { path: '/envoy.service.ext_proc.v3.ExternalProcessor/Process', requestStream: true, responseStream: true, requestSerialize: id, requestDeserialize: id, responseSerialize: id, responseDeserialize: id, originalName: 'process' };
  server.addService({ Process: method }, {
    Process(call: grpc.ServerDuplexStream<Buffer, Buffer>) {
      let seen = 0;
      call.on('data', () => { if (++seen === expect) for (const p of payloads) call.write(p); });
      call.on('end', () => { call.end(); });
    },
  });
  const port = await new Promise<number>((resolve) => { server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (_e, p) => { resolve(p); }); });
  return { port, close: () => { server.forceShutdown(); } };
}

/**
 * One measured scenario: either `run` in this thread (in-process work), or `remote`: requests sent
 * by the worker-thread client to a server in this thread.
 */
export interface Scenario {
  readonly name: string;
  /** Requests in flight. */
  readonly concurrency: number;
  /** One in-process request; resolves when done. */
  readonly run?: () => Promise<unknown>;
  /** A server in this thread, driven from the worker client. */
  readonly remote?: { readonly port: number; readonly frames: Frames };
}

/** Per-scenario results over all slices. */
export interface ScenarioResult {
  readonly name: string;
  readonly concurrency: number;
  /** Requests per second: median and best slice. */
  readonly rpsMedian: number;
  readonly rpsBest: number;
  /** Busy time of this (the serving) thread per request, µs: median slice. */
  readonly busyMedian: number;
  /** Per-request latency percentiles (ms) over all slices. */
  readonly p50: number;
  readonly p99: number;
  readonly samples: number;
}

const quantile = (sorted: readonly number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const median = (xs: readonly number[]): number => quantile([...xs].sort((a, b) => a - b), 0.5);

/** Runs `scenarios` in `rounds` rounds of `sliceMs` each, interleaved. */
export async function interleave(scenarios: readonly Scenario[], rounds: number, sliceMs: number, client: WorkerClient): Promise<ScenarioResult[]> {
  const acc = scenarios.map(() => ({ rps: [] as number[], busy: [] as number[], lat: [] as number[] }));
  for (let round = 0; round < rounds; round++) {
    for (const [i, s] of scenarios.entries()) {
      const a = acc[i];
      if (a === undefined) continue;
      const elu0 = performance.eventLoopUtilization();
      const t0 = performance.now();
      let lat: number[] = [];
      let done = 0;
      if (s.remote !== undefined) {
        const slice = await client.run(s.remote.port, s.remote.frames, s.concurrency, sliceMs);
        lat = slice.lat;
        done = slice.n;
      } else if (s.run !== undefined) {
        const run = s.run;
        const deadline = t0 + sliceMs;
        await Promise.all(
          Array.from({ length: s.concurrency }, async () => {
            while (performance.now() < deadline) {
              const t = performance.now();
              await run();
              lat.push(performance.now() - t);
              done++;
            }
          }),
        );
      }
      const wall = performance.now() - t0;
      const elu = performance.eventLoopUtilization(elu0);
      if (round === 0 || done === 0) continue; // warm-up round
      a.rps.push(done / (wall / 1000));
      a.busy.push((elu.active * 1000) / done);
      a.lat.push(...lat);
    }
  }
  return scenarios.map((s, i) => {
    const a = acc[i] ?? { rps: [], busy: [], lat: [] };
    const lat = [...a.lat].sort((x, y) => x - y);
    return { name: s.name, concurrency: s.concurrency, rpsMedian: median(a.rps), rpsBest: Math.max(...a.rps), busyMedian: median(a.busy), p50: quantile(lat, 0.5), p99: quantile(lat, 0.99), samples: lat.length };
  });
}

/** Formats results as a Markdown table. */
export function table(results: readonly ScenarioResult[]): string {
  const head = '| scenario | in flight | req/s median | req/s best | serving-thread µs/req | p50 ms | p99 ms | samples |\n|---|---|---|---|---|---|---|---|';
  const rows = results.map((r) => `| ${r.name} | ${r.concurrency} | ${r.rpsMedian.toFixed(0)} | ${r.rpsBest.toFixed(0)} | ${r.busyMedian.toFixed(0)} | ${r.p50.toFixed(3)} | ${r.p99.toFixed(3)} | ${r.samples} |`);
  return [head, ...rows].join('\n');
}

