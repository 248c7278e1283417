// Memory one in-flight ≈400 KB request costs the EPP's ext_proc stream, measured: STREAMS streams
// get their bodies as 64 KiB request_body chunks (each chunk its own buffer, as the transport hands
// them over) interleaved, with the Content-Length Envoy forwards; the picks are held so every
// request stays in flight. ArrayBuffer bytes after a full GC, per request and as a multiple of the
// body, (a) when every chunk but the last has arrived and (b) after end of stream, the parsed
// request waiting for its pick (and the JS heap the parsed request adds). The transient peak (the moment chunks and a joined copy coexist)
// is not visible to a sampler; the stream's own count of it is asserted in request-body.test.ts.
//   npm run build && node --expose-gc bench/epp-scale/body-memory.mjs [--streams 16] [--no-content-length]
import { EndpointPool } from '@switchyard/core';
import { FakeScheduler } from '@switchyard/core/testing';
import { ExtProcStream } from '@switchyard/envoy';
import { chatBodies } from './bodies.mjs';

const args = process.argv.slice(2);
const flag = (name, dflt) => { const i = args.indexOf(`--${name}`); return i === -1 ? dflt : args[i + 1]; };
const STREAMS = Number(flag('streams', 16));
const sized = !args.includes('--no-content-length');
const CHUNK = 65_536;
if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');

const pool = new EndpointPool();
pool.add({ address: '10.0.0.1:8000' });
const scheduler = new FakeScheduler(pool, { gated: true });
const sink = { send() {}, close() {}, fail() {} };
const headerMap = (h) => ({ headers: Object.entries(h).map(([key, v]) => ({ key, raw_value: Buffer.from(v) })) });
const bodySize = chatBodies(1, 400_000)[0].length;

const arrayBuffers = () => { globalThis.gc(); globalThis.gc(); return process.memoryUsage().arrayBuffers; };
const heap = () => process.memoryUsage().heapUsed;
const base = arrayBuffers();
const baseHeap = heap();
const streams = [];
for (let i = 0; i < STREAMS; i++) {
  const s = new ExtProcStream(sink, { scheduler, pool });
  const headers = { ':method': 'POST', ':path': '/v1/chat/completions', 'content-type': 'application/json', 'x-request-id': `m-${i}`, ...(sized ? { 'content-length': String(bodySize) } : {}) };
  s.receive({ request_headers: { headers: headerMap(headers), end_of_stream: false } });
  streams.push(s);
}
const chunkCount = Math.ceil(bodySize / CHUNK);
// Bodies are made one at a time and dropped: only what the streams keep stays reachable.
const bodyOf = (i) => chatBodies(i + 1, 400_000)[i];
for (let c = 0; c < chunkCount - 1; c++) {
  for (let i = 0; i < STREAMS; i++) {
    const body = bodyOf(i % 32);
    streams[i].receive({ request_body: { body: Buffer.from(body.subarray(c * CHUNK, (c + 1) * CHUNK)), end_of_stream: false } });
  }
}
const arriving = arrayBuffers() - base;
for (let i = 0; i < STREAMS; i++) {
  const body = bodyOf(i % 32);
  streams[i].receive({ request_body: { body: Buffer.from(body.subarray((chunkCount - 1) * CHUNK)), end_of_stream: true } });
}
await new Promise((r) => setTimeout(r, 50));
const waiting = arrayBuffers() - base;
const waitingHeap = heap() - baseHeap;
const perReq = (bytes) => `${(bytes / STREAMS / 1024).toFixed(0)} KiB (${(bytes / STREAMS / bodySize).toFixed(2)}× the body)`;
console.log(`| ${STREAMS} streams, ${bodySize} B bodies in ${chunkCount} chunks, Content-Length ${sized ? 'sent' : 'absent'} | per request |\n|---|---:|`);
console.log(`| (a) all chunks but the last arrived | ${perReq(arriving)} |`);
console.log(`| (b) end of stream, pick waiting | ${perReq(waiting)} |`);
console.log(`| (b) JS heap besides: the parsed request (JSON strings, prompt view) | ${perReq(waitingHeap)} |`);
console.log(`| picks held | ${scheduler.waiting} |`);
process.exit(0);
