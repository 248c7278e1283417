// Child process of run.mjs: the independent load generator. It plays Envoy in FULL_DUPLEX_STREAMED
// mode over one HTTP/2 connection (raw node:http2, pre-encoded messages): request headers, the
// ≈400 KB chat body in 64 KiB request_body messages (eos on the last), waits for the EPP's header
// reply and every streamed body chunk (the time Envoy holds the request), then sends response
// headers with eos and half-closes. STREAMS loops run until DURATION_MS has passed.
import http2 from 'node:http2';
import { encodeProcessingRequest } from '@switchyard/envoy';
import { chatBodies } from './bodies.mjs';

const port = Number(process.env.EPP_PORT);
const streams = Number(process.env.STREAMS ?? 16);
const bodies = chatBodies(Number(process.env.BODIES ?? 32), Number(process.env.BODY_BYTES ?? 400_000));
const CHUNK = 65_536;

function frame(message) {
  const bytes = encodeProcessingRequest(message);
  const out = Buffer.allocUnsafe(5 + bytes.length);
  out[0] = 0;
  out.writeUInt32BE(bytes.length, 1);
  out.set(bytes, 5);
  return out;
}
const headerMap = (h) => ({ headers: Object.entries(h).map(([key, v]) => ({ key, raw_value: Buffer.from(v) })) });
const HEADERS = { ':method': 'POST', ':path': '/v1/chat/completions', ':authority': 'gateway', 'content-type': 'application/json', 'user-agent': 'loadgen/1.0' };

const jobs = bodies.map((body, i) => {
  // Envoy forwards the client's Content-Length (every HTTP/1.1 client with a fixed body sends one).
  const request = [frame({ request_headers: { headers: headerMap({ ...HEADERS, 'content-length': String(body.length), 'x-request-id': `load-${i}` }), end_of_stream: false } })];
  for (let o = 0; o < body.length; o += CHUNK) request.push(frame({ request_body: { body: body.subarray(o, o + CHUNK), end_of_stream: o + CHUNK >= body.length } }));
  return { request, after: [frame({ response_headers: { headers: headerMap({ ':status': '200', 'content-type': 'application/json' }), end_of_stream: true } })], replies: 1 + Math.ceil(body.length / 62_000), bytes: body.length };
});

// CONNECTIONS HTTP/2 connections (default 1), the streams spread over them round robin: a cluster of
// EPP workers balances connections, not streams, so one connection would keep all but one worker idle.
const sessions = Array.from({ length: Math.max(1, Number(process.env.CONNECTIONS ?? 1)) }, () => {
  const s = http2.connect(`http://127.0.0.1:${port}`);
  s.on('error', () => undefined);
  return s;
});

/** One request; resolves with its latency in ms, or rejects on a broken stream or an immediate response. */
function exchange(job, session) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const st = session.request({ ':method': 'POST', ':path': '/envoy.service.ext_proc.v3.ExternalProcessor/Process', 'content-type': 'application/grpc', te: 'trailers' });
    let seen = 0, need = -1, have = 0, head = Buffer.alloc(0), first = -1, done = false;
    st.on('data', (chunk) => {
      let rest = chunk;
      while (rest.length > 0) {
        if (need < 0) {
          const h = head.length > 0 ? Buffer.concat([head, rest]) : rest;
          if (h.length < 5) { head = h; return; }
          need = h.readUInt32BE(1); head = Buffer.alloc(0); rest = h.subarray(5);
          // ProcessingResponse field 7 (immediate_response) starts with tag 0x3a: a rejection.
          if (first < 0) first = rest[0] ?? -1;
        }
        const take = Math.min(need - have, rest.length);
        have += take; rest = rest.subarray(take);
        if (have === need) { seen++; need = -1; have = 0; }
      }
      if (!done && first === 0x3a) { done = true; st.close(); reject(new Error('immediate response')); return; }
      if (!done && seen >= job.replies) {
        done = true;
        const ms = performance.now() - t0;
        for (const f of job.after) st.write(f);
        st.end();
        resolve(ms);
      }
    });
    st.on('error', (e) => { if (!done) { done = true; reject(e); } });
    st.on('close', () => { if (!done) { done = true; reject(new Error(`stream closed after ${seen} replies`)); } });
    for (const f of job.request) st.write(f);
  });
}

async function run(durationMs) {
  const lat = [];
  let errors = 0, next = 0, bytes = 0;
  const deadline = performance.now() + durationMs;
  await Promise.all(Array.from({ length: streams }, async (_, i) => {
    const session = sessions[i % sessions.length];
    while (performance.now() < deadline) {
      const job = jobs[next++ % jobs.length];
      try { lat.push(await exchange(job, session)); bytes += job.bytes; } catch { errors++; }
    }
  }));
  return { lat, errors, bytes };
}

process.on('message', async (m) => {
  if (m.cmd === 'run') process.send({ id: m.id, ...(await run(m.durationMs)) });
  if (m.cmd === 'close') { for (const s of sessions) s.close(); process.exit(0); }
});
process.send({ ready: true, bodyBytes: jobs[0].bytes });
