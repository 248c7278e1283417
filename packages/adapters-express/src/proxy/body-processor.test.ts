import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createBodyProcessor, extractUsage, extractUsageFromBytes, mergeUsage, usageFromWire, type BodyProcessor } from '@switchyard/express';

/** Feeds `bytes` in the given chunk sizes and returns everything the processor emitted. */
function run(p: BodyProcessor, bytes: Buffer, cuts: number[]): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  for (const c of cuts) {
    if (at >= bytes.length) break;
    const piece = bytes.subarray(at, Math.min(bytes.length, at + c));
    at += piece.length;
    const o = p.push(piece);
    if (o !== undefined) out.push(o);
  }
  if (at < bytes.length) {
    const o = p.push(bytes.subarray(at));
    if (o !== undefined) out.push(o);
  }
  const tail = p.end();
  if (tail !== undefined) out.push(tail);
  return Buffer.concat(out);
}

const sseEvent = (model: string, content: string, usage?: unknown): string =>
  `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', model, choices: [{ index: 0, delta: { content } }], ...(usage === undefined ? {} : { usage }) })}\n\n`;

const text = fc.string({ unit: fc.constantFrom('a', 'é', '"', '\\', '\n', '{', '}', '🙂', 'model', 'usage', ' ') });
const cuts = fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 60 });

describe('createBodyProcessor', () => {
  it('passes SSE bytes through unchanged when no rewrite is needed, whatever the chunking', () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 8 }), cuts, (contents, cs) => {
        const stream = Buffer.from(contents.map((c) => sseEvent('m', c)).join('') + 'data: [DONE]\n\n');
        const p = createBodyProcessor({ contentType: 'text/event-stream' });
        expect(run(p, stream, cs).equals(stream)).toBe(true);
      }),
    );
  });

  it('restores the model in every SSE event exactly, whatever the chunking and content', () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 8 }), cuts, text, (contents, cs, clientModel) => {
        const upstream = Buffer.from(contents.map((c) => sseEvent('target/x', c)).join('') + 'data: [DONE]\n\n');
        const expected = Buffer.from(contents.map((c) => sseEvent(clientModel, c)).join('') + 'data: [DONE]\n\n');
        const p = createBodyProcessor({ contentType: 'text/event-stream; charset=utf-8', rewriteModel: { from: 'target/x', to: clientModel } });
        expect(run(p, upstream, cs).toString('utf8')).toBe(expected.toString('utf8'));
      }),
    );
  });

  it('never rewrites a model name that only appears inside content', () => {
    const content = '{"model":"target"}';
    const upstream = Buffer.from(sseEvent('target', content));
    const p = createBodyProcessor({ contentType: 'text/event-stream', rewriteModel: { from: 'target', to: 'client' } });
    const out = JSON.parse(run(p, upstream, [7]).toString('utf8').slice(6)) as { model: string; choices: { delta: { content: string } }[] };
    expect(out.model).toBe('client');
    expect(out.choices[0]?.delta.content).toBe(content);
  });

  it('captures usage from the SSE usage chunk', () => {
    fc.assert(
      fc.property(cuts, fc.nat(100_000), fc.nat(100_000), fc.nat(1000), (cs, prompt, completion, cached) => {
        const stream = Buffer.from(sseEvent('m', 'hi') + sseEvent('m', '', { prompt_tokens: prompt, completion_tokens: completion, prompt_tokens_details: { cached_tokens: cached } }) + 'data: [DONE]\n\n');
        const p = createBodyProcessor({ contentType: 'text/event-stream' });
        run(p, stream, cs);
        expect(p.usage).toEqual({ promptTokens: prompt, completionTokens: completion, cachedTokens: cached });
      }),
    );
  });

  it('merges Anthropic stream usage (input first, output last)', () => {
    const stream = Buffer.from(
      'event: message_start\ndata: {"type":"message_start","message":{"model":"m","usage":{"input_tokens":25,"output_tokens":1}}}\n\n' +
        'event: message_delta\ndata: {"type":"message_delta","usage":{"output_tokens":15}}\n\n',
    );
    const p = createBodyProcessor({ contentType: 'text/event-stream' });
    run(p, stream, [13, 50]);
    expect(p.usage).toEqual({ promptTokens: 25, completionTokens: 15 });
  });

  it('restores the model and reads usage in a JSON body, whatever the chunking', () => {
    fc.assert(
      fc.property(text, cuts, (content, cs) => {
        const body = { id: 'x', model: 'big-model', choices: [{ message: { content } }], usage: { prompt_tokens: 3, completion_tokens: 4 } };
        const p = createBodyProcessor({ contentType: 'application/json', rewriteModel: { from: 'big-model', to: 'alias' } });
        expect(p.rewrites).toBe(true);
        const out = JSON.parse(run(p, Buffer.from(JSON.stringify(body)), cs).toString('utf8')) as unknown;
        expect(out).toEqual({ ...body, model: 'alias' });
        expect(p.usage).toEqual({ promptTokens: 3, completionTokens: 4 });
      }),
    );
  });

  it('streams JSON through untouched without a rewrite and still finds usage at the end', () => {
    const big = JSON.stringify({ data: [{ embedding: Array.from({ length: 30_000 }, (_, i) => i / 7) }], usage: { prompt_tokens: 9, total_tokens: 9 } });
    const p = createBodyProcessor({ contentType: 'application/json', scanLimitBytes: 1024 });
    expect(run(p, Buffer.from(big), [4096]).toString()).toBe(big);
    expect(p.usage).toEqual({ promptTokens: 9, completionTokens: 0 });
  });

  it('passes other content types through', () => {
    const p = createBodyProcessor({ contentType: 'text/plain', rewriteModel: { from: 'a', to: 'b' } });
    expect(run(p, Buffer.from('"model":"a"'), [3]).toString()).toBe('"model":"a"');
    expect(p.rewrites).toBe(false);
  });
});

describe('usage helpers', () => {
  it('reads OpenAI and Anthropic shapes and rejects junk', () => {
    expect(usageFromWire({ input_tokens: 2, output_tokens: 3, cache_read_input_tokens: 1 })).toEqual({ promptTokens: 2, completionTokens: 3, cachedTokens: 1 });
    expect(usageFromWire({ prompt_tokens: -1 })).toBeUndefined();
    expect(usageFromWire(null)).toBeUndefined();
    expect(extractUsage('{"usage":null}')).toBeUndefined();
    expect(extractUsage('{"a":"\\"usage\\": {","usage":{"prompt_tokens":1,"completion_tokens":2}}')).toEqual({ promptTokens: 1, completionTokens: 2 });
    expect(mergeUsage(undefined, { promptTokens: 1, completionTokens: 0 })).toEqual({ promptTokens: 1, completionTokens: 0 });
  });

  it('never throws on arbitrary text, and reads bytes exactly as text', () => {
    const latin1 = fc.string({ unit: fc.integer({ min: 0, max: 255 }).map((c) => String.fromCharCode(c)) });
    fc.assert(
      fc.property(latin1, (s) => {
        extractUsage(s);
        extractUsage(`{"usage":${s}`);
        for (const t of [s, `{"usage":${s}`, `{"x":"${s}","usage":{"prompt_tokens":${s.length},"completion_tokens":1}}`]) {
          expect(extractUsageFromBytes(Buffer.from(t, 'latin1'))).toEqual(extractUsage(t));
        }
      }),
    );
  });
});
