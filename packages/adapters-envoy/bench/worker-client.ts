/*
 * The Envoy stand-in for benchmarks, run in a worker thread so the measured thread serves only.
 * The worker's source is plain JavaScript (worker threads cannot load TypeScript): one HTTP/2
 * session per port, pre-encoded gRPC frames, `concurrency` request loops until the deadline.
 */
import { Worker } from 'node:worker_threads';
import type { Frames } from './harness.js';

const SOURCE = `
const { parentPort } = require('node:worker_threads');
const http2 = require('node:http2');
const sessions = new Map();
function session(port) {
  let s = sessions.get(port);
  if (!s || s.destroyed || s.closed) { s = http2.connect('http://127.0.0.1:' + port); s.on('error', () => {}); sessions.set(port, s); }
  return s;
}
function exchange(port, job) {
  return new Promise((resolve, reject) => {
    const st = session(port).request({ ':method': 'POST', ':path': '/envoy.service.ext_proc.v3.ExternalProcessor/Process', 'content-type': 'application/grpc', te: 'trailers' });
    let seen = 0, need = -1, have = 0, head = Buffer.alloc(0), done = false;
    st.on('data', (chunk) => {
      let rest = chunk;
      while (rest.length > 0) {
        if (need < 0) {
          const h = head.length ? Buffer.concat([head, rest]) : rest;
          if (h.length < 5) { head = h; return; }
          need = h.readUInt32BE(1); head = Buffer.alloc(0); rest = h.subarray(5);
        }
        const take = Math.min(need - have, rest.length);
        have += take; rest = rest.subarray(take);
        if (have === need) { seen++; need = -1; have = 0; }
      }
      if (!done && seen >= job.replies) { done = true; for (const f of job.after) st.write(f); st.end(); resolve(); }
    });
    st.on('error', (e) => { if (!done) { done = true; reject(e); } });
    st.on('close', () => { if (!done) { done = true; reject(new Error('closed after ' + seen + ' replies')); } });
    for (const f of job.request) st.write(f);
  });
}
parentPort.on('message', async (job) => {
  if (job.close) { for (const s of sessions.values()) s.close(); parentPort.postMessage({ closed: true }); return; }
  job.request = job.request.map((b) => Buffer.from(b)); job.after = job.after.map((b) => Buffer.from(b));
  const lat = []; let n = 0; const deadline = performance.now() + job.durationMs;
  try {
    await Promise.all(Array.from({ length: job.concurrency }, async () => {
      while (performance.now() < deadline) { const t = performance.now(); await exchange(job.port, job); lat.push(performance.now() - t); n++; }
    }));
    parentPort.postMessage({ n, lat });
  } catch (e) { parentPort.postMessage({ error: String(e && e.message || e) }); }
});
`;

/** Result of one slice run by the worker. */
export interface WorkerSlice {
  readonly n: number;
  readonly lat: number[];
}

/** A benchmark client in its own thread. */
export class WorkerClient {
  readonly #worker = new Worker(SOURCE, { eval: true });

  /** Runs `concurrency` request loops against `port` for `durationMs`. */
  run(port: number, frames: Frames, concurrency: number, durationMs: number): Promise<WorkerSlice> {
    return new Promise((resolve, reject) => {
      this.#worker.once('message', (m: WorkerSlice & { error?: string }) => {
        if (m.error !== undefined) reject(new Error(m.error));
        else resolve(m);
      });
      this.#worker.postMessage({ port, request: frames.request, after: frames.after, replies: frames.replies, concurrency, durationMs });
    });
  }

  /** Closes the sessions and stops the thread. */
  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.#worker.once('message', () => { resolve(); });
      this.#worker.postMessage({ close: true });
    });
    await this.#worker.terminate();
  }
}
