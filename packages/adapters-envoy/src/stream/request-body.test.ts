import { EndpointPool, isSwitchyardError, parseRequest } from '@switchyard/core';
import { FakeScheduler } from '@switchyard/core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CollectSink } from '../test-support/collect-sink.js';
import { chunkOf, reqBody, reqHeaders } from '../test-support/wire-helpers.js';
import { ExtProcStream } from './ext-proc-stream.js';
import { RequestBodyBuffer, expectedBodyBytes } from './request-body.js';

/** Splits `body` at `cuts` (positions taken modulo its length, any order, repeats allowed). */
function split(body: Buffer, cuts: readonly number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (body.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const p of [...points, body.length]) {
    out.push(body.subarray(from, p));
    from = p;
  }
  return out;
}

function chunksOf(body: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let o = 0; o < body.length; o += size) out.push(body.subarray(o, o + size));
  return out;
}

/** A ≈400 KB chat body like the fleet benchmark's (100K-token prompt). */
function chatBody(bytes: number): Buffer {
  const turn = 'The quick brown fox jumps over the lazy dog while the scheduler counts tokens. ';
  const content = turn.repeat(Math.ceil(bytes / turn.length)).slice(0, bytes - 120);
  return Buffer.from(JSON.stringify({ model: 'meta-llama/Llama-3.1-8B-Instruct', messages: [{ role: 'user', content }], max_tokens: 64 }));
}

function collect(chunks: readonly Buffer[], expected: number | undefined): { body: Buffer; peak: number; heldAfter: number } {
  const b = new RequestBodyBuffer(expected);
  for (const c of chunks) b.push(c);
  const body = b.take();
  return { body, peak: b.peakHeldBytes, heldAfter: b.heldBytes };
}

describe('RequestBodyBuffer', () => {
  const body = chatBody(400_000);

  it('holds a 400 KB body sent as 64 KiB chunks once when the Content-Length is known (one buffer, no join)', () => {
    const r = collect(chunksOf(body, 65_536), body.length);
    expect(r.body.equals(body)).toBe(true);
    expect(r.peak).toBe(body.length);
    // The body owns its memory exactly: no slack, no view of a transport buffer.
    expect(r.body.buffer.byteLength).toBe(body.length);
    expect(r.heldAfter).toBe(0);
  });

  it('holds it at most twice without a Content-Length (the chunks and their one join)', () => {
    const r = collect(chunksOf(body, 65_536), undefined);
    expect(r.body.equals(body)).toBe(true);
    expect(r.peak).toBe(2 * body.length);
  });

  it('keeps a body that arrives in one message (BUFFERED mode) as the message view, without a copy', () => {
    const b = new RequestBodyBuffer(body.length);
    b.push(body);
    expect(b.take()).toBe(body);
    expect(b.peakHeldBytes).toBe(body.length);
  });

  it('stays within twice the body for any chunking when the Content-Length is honest, including bodies that outgrow the first buffer', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3_000_000 }), fc.array(fc.nat(), { maxLength: 40 }), (size, cuts) => {
        const raw = Buffer.alloc(size, 0x61);
        const r = collect(split(raw, cuts), size);
        expect(r.body.equals(raw)).toBe(true);
        expect(r.peak).toBeLessThanOrEqual(2 * size);
      }),
      { numRuns: 60 },
    );
  });

  it('returns exactly the bytes received for any chunking and any declared length, true or not', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 5000 }), fc.array(fc.nat(), { maxLength: 30 }), fc.option(fc.integer({ min: 1, max: 1_000_000 })), (bytes, cuts, declared) => {
        const raw = Buffer.from(bytes);
        const r = collect(split(raw, cuts), declared ?? undefined);
        expect(r.body.equals(raw)).toBe(true);
        // A declared length larger than what came is not kept alive by the body.
        expect(r.body.buffer.byteLength).toBeLessThanOrEqual(Math.max(2 * raw.length, raw.buffer.byteLength));
      }),
    );
  });

  it('reads Content-Length only as a plain positive integer within the body limit', () => {
    expect(expectedBodyBytes('400000', 16_777_216)).toBe(400_000);
    for (const bad of [undefined, '', '0', '-5', '1e5', ' 12', '12 ', '0x10', '99999999999999999']) expect(expectedBodyBytes(bad, 16_777_216)).toBeUndefined();
    expect(expectedBodyBytes('20000000', 16_777_216)).toBeUndefined();
  });
});

// --- the stream: chunked parse against the whole-body parse ---

const PATH = '/v1/chat/completions';
const HEADERS = { ':method': 'POST', ':path': PATH, 'content-type': 'application/json', 'x-request-id': 'rid-1' };

const message = fc.record({ role: fc.constantFrom('system', 'user', 'assistant'), content: fc.string({ unit: 'binary', maxLength: 200 }) });
const chatRequest = fc.record(
  {
    model: fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
    messages: fc.array(message, { minLength: 1, maxLength: 6 }),
    stream: fc.boolean(),
    max_tokens: fc.integer({ min: 1, max: 4096 }),
    temperature: fc.double({ min: 0, max: 2, noNaN: true }),
    cache_salt: fc.string({ maxLength: 12 }),
  },
  { requiredKeys: ['model', 'messages'] },
);

interface StreamOutcome {
  readonly request?: unknown;
  readonly forwarded?: string;
  readonly rejected?: { status: number; body: string };
}

/** Runs one request through an ExtProcStream with the body cut at `cuts`. */
async function throughStream(raw: Buffer, cuts: readonly number[], contentLength: string | undefined): Promise<StreamOutcome> {
  const pool = new EndpointPool();
  pool.add({ address: '10.0.0.1:8000' });
  const scheduler = new FakeScheduler(pool);
  const sink = new CollectSink();
  const stream = new ExtProcStream(sink, { scheduler, pool });
  stream.receive(reqHeaders(contentLength === undefined ? HEADERS : { ...HEADERS, 'content-length': contentLength }));
  const parts = split(raw, cuts);
  parts.forEach((p, i) => { stream.receive(reqBody(p, i === parts.length - 1)); });
  await stream.idle();
  const imm = sink.replies[0]?.immediate_response;
  if (imm !== undefined) return { rejected: { status: imm.status.code, body: Buffer.from(imm.body ?? []).toString() } };
  const forwarded = sink.replies.slice(1).map((r) => chunkOf(r).body).join('');
  return { request: scheduler.decisions[0]?.request, forwarded };
}

function wholeBodyParse(raw: Buffer, headers: Record<string, string>): { request?: unknown; error?: string } {
  try {
    return { request: parseRequest({ path: PATH, headers, body: raw }) };
  } catch (error) {
    if (!isSwitchyardError(error)) throw error;
    return { error: error.message };
  }
}

describe('ExtProcStream body parse', () => {
  it('gives the same parsed request as the whole-body parse for any valid body and any chunking, with or without Content-Length', async () => {
    await fc.assert(
      fc.asyncProperty(chatRequest, fc.array(fc.nat(), { maxLength: 25 }), fc.boolean(), async (body, cuts, sized) => {
        const raw = Buffer.from(JSON.stringify(body));
        const headers = sized ? { ...HEADERS, 'content-length': String(raw.length) } : HEADERS;
        const got = await throughStream(raw, cuts, headers['content-length' as keyof typeof headers]);
        const want = wholeBodyParse(raw, { ...headers });
        expect(got.rejected).toBeUndefined();
        expect(got.request).toEqual(want.request);
        expect(got.forwarded).toBe(raw.toString());
      }),
      { numRuns: 150 },
    );
  });

  it('ends a truncated or malformed body with the same 400 as the whole-body parse, however it is chunked and whatever length was declared', async () => {
    await fc.assert(
      fc.asyncProperty(chatRequest, fc.nat(), fc.array(fc.nat(), { maxLength: 10 }), fc.constantFrom('truncate', 'corrupt'), async (body, at, cuts, how) => {
        const full = Buffer.from(JSON.stringify(body));
        const cut = 1 + (at % (full.length - 1));
        const raw = how === 'truncate' ? full.subarray(0, cut) : Buffer.concat([full.subarray(0, cut), Buffer.from('}{'), full.subarray(cut)]);
        const want = wholeBodyParse(raw, { ...HEADERS, 'content-length': String(full.length) });
        const got = await throughStream(raw, cuts, String(full.length));
        // A strict prefix of a JSON object is never valid; an inserted "}{" may land inside a string.
        if (how === 'truncate') expect(want.error).toBeDefined();
        if (want.error === undefined) {
          expect(got.request).toEqual(want.request);
          return;
        }
        expect(got.rejected?.status).toBe(400);
        expect((JSON.parse(got.rejected?.body ?? '{}') as { error: { message: string } }).error.message).toBe(`inference error: BAD_REQUEST - ${want.error}`);
      }),
      { numRuns: 100 },
    );
  });
});
