import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createResponseBodyReader, responseBodyKind, type ResponseBodyReader } from '@switchyard/core';

/** Feeds `bytes` in the given chunk sizes and returns everything the reader emitted. */
function run(r: ResponseBodyReader, bytes: Buffer, cuts: number[]): Buffer {
  const out: Uint8Array[] = [];
  let at = 0;
  for (const c of cuts) {
    if (at >= bytes.length) break;
    const piece = bytes.subarray(at, Math.min(bytes.length, at + c));
    at += piece.length;
    const o = r.push(piece);
    if (o !== undefined) out.push(o);
  }
  if (at < bytes.length) {
    const o = r.push(bytes.subarray(at));
    if (o !== undefined) out.push(o);
  }
  const tail = r.end();
  if (tail !== undefined) out.push(tail);
  return Buffer.concat(out);
}

const sseEvent = (model: string, content: string, usage?: unknown): string =>
  `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', model, choices: [{ index: 0, delta: { content } }], ...(usage === undefined ? {} : { usage }) })}\n\n`;

const text = fc.string({ unit: fc.constantFrom('a', 'é', '"', '\\', '\n', '{', '}', ',', ':', '🙂', 'model', '"model"', 'usage', ' ') });
const cuts = fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 60 });
const sse = (restoreModel?: { from: string; to: string }): ResponseBodyReader => createResponseBodyReader({ contentType: 'text/event-stream; charset=utf-8', restoreModel });
const json = (restoreModel?: { from: string; to: string }, scanLimitBytes?: number): ResponseBodyReader => createResponseBodyReader({ contentType: 'application/json', restoreModel, scanLimitBytes });

describe('responseBodyKind', () => {
  it('reads SSE, any JSON type, and a missing type by what the request asked for', () => {
    expect(responseBodyKind('text/event-stream')).toBe('sse');
    expect(responseBodyKind('application/problem+json')).toBe('json');
    expect(responseBodyKind(undefined, true)).toBe('sse');
    expect(responseBodyKind('', false)).toBe('json');
    expect(responseBodyKind('text/plain')).toBe('opaque');
  });
});

describe('createResponseBodyReader: SSE', () => {
  it('passes bytes through unchanged when no restore is needed, whatever the chunking', () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 8 }), cuts, (contents, cs) => {
        const stream = Buffer.from(contents.map((c) => sseEvent('m', c)).join('') + 'data: [DONE]\n\n');
        expect(run(sse(), stream, cs).equals(stream)).toBe(true);
      }),
    );
  });

  it('restores the model in every event exactly, whatever the chunking and content', () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 8 }), cuts, text, (contents, cs, clientModel) => {
        const upstream = Buffer.from(contents.map((c) => sseEvent('target/x', c)).join('') + 'data: [DONE]\n\n');
        const expected = contents.map((c) => sseEvent(clientModel, c)).join('') + 'data: [DONE]\n\n';
        const reader = sse({ from: 'target/x', to: clientModel });
        expect(run(reader, upstream, cs).toString('utf8')).toBe(expected);
        expect(reader.restored).toBe(contents.length);
      }),
    );
  });

  it('never restores a name that only appears inside content, or in a value position', () => {
    const content = '{"model":"target"}';
    const reader = sse({ from: 'target', to: 'client' });
    const out = JSON.parse(run(reader, Buffer.from(sseEvent('target', content)), [7]).toString('utf8').slice(6)) as { model: string; choices: { delta: { content: string } }[] };
    expect(out.model).toBe('client');
    expect(out.choices[0]?.delta.content).toBe(content);
    expect(run(sse({ from: 'target', to: 'client' }), Buffer.from('data: ["model","target"]\n'), [3]).toString()).toBe('data: ["model","target"]\n');
  });

  it('restores the first name of each event only (Anthropic nests it under message)', () => {
    const event = 'data: {"type":"message_start","message":{"model" : "t","content":[{"model":"t"}]}}\n\n';
    expect(run(sse({ from: 't', to: 'c' }), Buffer.from(event + event), [5, 9]).toString()).toBe(
      ('data: {"type":"message_start","message":{"model":"c","content":[{"model":"t"}]}}\n\n').repeat(2),
    );
  });

  it('reads usage of chat/completions, Responses and Anthropic streams, however split', () => {
    const streams: [string, unknown][] = [
      [sseEvent('m', 'hi') + sseEvent('m', '', { prompt_tokens: 7, completion_tokens: 10, prompt_tokens_details: { cached_tokens: 3 } }) + 'data: [DONE]\n\n', { promptTokens: 7, completionTokens: 10, cachedTokens: 3 }],
      ['event: response.created\ndata: {"type":"response.created","response":{"usage":null}}\n\nevent: response.completed\ndata: {"type":"response.completed","response":{"usage":{"input_tokens":5,"input_tokens_details":{"cached_tokens":4},"output_tokens":6}}}\n\n', { promptTokens: 5, completionTokens: 6, cachedTokens: 4 }],
      ['event: message_start\ndata: {"type":"message_start","message":{"model":"m","usage":{"input_tokens":25,"output_tokens":1}}}\n\nevent: message_delta\ndata: {"type":"message_delta","usage":{"output_tokens":15}}\n\n', { promptTokens: 25, completionTokens: 15 }],
      ['data: {"usage":{"prompt_tokens":1,"completion_tokens":2}}', { promptTokens: 1, completionTokens: 2 }],
      ['data: {"choices":[]}\n\ndata: [DONE]\n\n', undefined],
    ];
    fc.assert(
      fc.property(cuts, (cs) => {
        for (const [stream, usage] of streams) {
          const reader = sse();
          run(reader, Buffer.from(stream), cs);
          expect(reader.usage).toEqual(usage);
        }
      }),
    );
  });

  it('skips a line longer than the scan limit instead of holding it', () => {
    const reader = createResponseBodyReader({ contentType: 'text/event-stream', scanLimitBytes: 64 });
    const long = `data: {"usage":{"prompt_tokens":9,"completion_tokens":9},"pad":"${'x'.repeat(200)}"}\n`;
    run(reader, Buffer.from(long + 'data: {"usage":{"prompt_tokens":1,"completion_tokens":2}}\n'), new Array<number>(40).fill(10));
    expect(reader.usage).toEqual({ promptTokens: 1, completionTokens: 2 });
  });
});

describe('createResponseBodyReader: JSON', () => {
  it('restores the model and reads usage, whatever the chunking', () => {
    fc.assert(
      fc.property(text, cuts, (content, cs) => {
        const body = { id: 'x', model: 'big-model', choices: [{ message: { content } }], usage: { prompt_tokens: 3, completion_tokens: 4 } };
        const reader = json({ from: 'big-model', to: 'alias' });
        expect(reader.rewrites).toBe(true);
        expect(JSON.parse(run(reader, Buffer.from(JSON.stringify(body)), cs).toString('utf8'))).toEqual({ ...body, model: 'alias' });
        expect(reader.usage).toEqual({ promptTokens: 3, completionTokens: 4 });
      }),
    );
  });

  it('restores a name written with spaces around the colon, once per document', () => {
    const reader = json({ from: 'big', to: 'small' });
    expect(run(reader, Buffer.from('{"model" :\n "big","echo":{"model":"big"}}'), [2]).toString()).toBe('{"model":"small","echo":{"model":"big"}}');
    expect(run(json({ from: 'big', to: 'small' }), Buffer.from('{"model":"bigger"}'), [4]).toString()).toBe('{"model":"bigger"}');
  });

  it('streams JSON through untouched without a restore and still finds usage at the end', () => {
    const big = JSON.stringify({ data: [{ embedding: Array.from({ length: 30_000 }, (_, i) => i / 7) }], usage: { prompt_tokens: 9, total_tokens: 9 } });
    const reader = json(undefined, 1024);
    expect(run(reader, Buffer.from(big), [4096]).toString()).toBe(big);
    expect(reader.usage).toEqual({ promptTokens: 9, completionTokens: 0 });
  });

  it('holds back only a few bytes while restoring a large body', () => {
    const reader = json({ from: 'big', to: 'small' });
    const chunk = Buffer.alloc(65_536, 0x61);
    expect(reader.push(Buffer.from('{"model":"big","text":"'))?.toString()).toBe('{"model":"small","text":"');
    for (let i = 0; i < 32; i++) expect(reader.push(chunk)).toBe(chunk);
  });

  it('never changes bytes without the key, and never throws on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), cuts, (bytes, cs) => {
        const b = Buffer.from(bytes);
        const out = run(json({ from: 't', to: 'c' }), b, cs);
        if (!b.includes('"model"')) expect(out.equals(b)).toBe(true);
      }),
    );
  });

  it('passes other content types through', () => {
    const reader = createResponseBodyReader({ contentType: 'text/plain', restoreModel: { from: 'a', to: 'b' } });
    expect(run(reader, Buffer.from('{"model":"a"}'), [3]).toString()).toBe('{"model":"a"}');
    expect(reader.rewrites).toBe(false);
  });
});
