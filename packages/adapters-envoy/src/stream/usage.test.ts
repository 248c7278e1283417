import { ModelNameRestorer, SseUsageScanner, readUsage } from '@switchyard/envoy';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const SSE = [
  'data: {"choices":[{"delta":{"content":"é✓"}}],"usage":null}\n\n',
  ': keep-alive\n\n',
  'data: {"choices":[],"usage":{"prompt_tokens":7,"total_tokens":17,"completion_tokens":10,"prompt_tokens_details":{"cached_tokens":3}}}\n\n',
  'data: [DONE]\n\n',
].join('');

function splitAt(bytes: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const p of points) {
    out.push(bytes.subarray(from, p));
    from = p;
  }
  out.push(bytes.subarray(from));
  return out;
}

describe('SseUsageScanner', () => {
  it('finds the same usage however the stream is split (even inside multi-byte characters)', () => {
    const bytes = Buffer.from(SSE);
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 12 }), (cuts) => {
        const scanner = new SseUsageScanner();
        for (const part of splitAt(bytes, cuts)) scanner.push(part);
        scanner.end();
        expect(scanner.usage).toEqual({ promptTokens: 7, completionTokens: 10, cachedTokens: 3 });
      }),
    );
  });

  it('reads a last line without a trailing newline, and reports nothing for a stream without usage', () => {
    const a = new SseUsageScanner();
    a.push(Buffer.from('data: {"usage":{"prompt_tokens":1,"completion_tokens":2}}'));
    a.end();
    expect(a.usage).toEqual({ promptTokens: 1, completionTokens: 2 });
    const b = new SseUsageScanner();
    b.push(Buffer.from('data: {"choices":[]}\n\ndata: [DONE]\n\n'));
    b.end();
    expect(b.usage).toBeUndefined();
  });

  it('merges Anthropic message_start and message_delta usage', () => {
    const s = new SseUsageScanner();
    s.push(Buffer.from('event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":25,"output_tokens":1}}}\n\n'));
    s.push(Buffer.from('event: message_delta\ndata: {"type":"message_delta","usage":{"output_tokens":15}}\n\n'));
    s.end();
    expect(s.usage).toEqual({ promptTokens: 25, completionTokens: 15 });
  });

  it('reads Responses API completion events', () => {
    const s = new SseUsageScanner();
    s.push(Buffer.from('data: {"type":"response.completed","response":{"usage":{"input_tokens":5,"output_tokens":6}}}\n'));
    s.end();
    expect(s.usage).toEqual({ promptTokens: 5, completionTokens: 6 });
  });
});

describe('readUsage', () => {
  it('reads OpenAI, Responses and Anthropic bodies, and nothing from others', () => {
    expect(readUsage({ usage: { prompt_tokens: 1, completion_tokens: 2 } })).toEqual({ promptTokens: 1, completionTokens: 2 });
    expect(readUsage({ usage: { input_tokens: 3, output_tokens: 4, input_tokens_details: { cached_tokens: 2 } } })).toEqual({ promptTokens: 3, completionTokens: 4, cachedTokens: 2 });
    expect(readUsage({ usage: { input_tokens: 3, output_tokens: 4, cache_read_input_tokens: 1 } })).toEqual({ promptTokens: 3, completionTokens: 4, cachedTokens: 1 });
    expect(readUsage({ usage: null })).toBeUndefined();
    expect(readUsage([1, 2])).toBeUndefined();
    expect(readUsage({ usage: { prompt_tokens: -1 } })).toBeUndefined();
  });
});

describe('ModelNameRestorer', () => {
  it('replaces every occurrence, with or without a space, and leaves other bytes alone', () => {
    const r = new ModelNameRestorer('lora-"x"', 'base');
    const input = Buffer.from('{"model":"lora-\\"x\\"","a":1}\n{"model": "lora-\\"x\\""}');
    expect(Buffer.from(r.apply(input)).toString()).toBe('{"model":"base","a":1}\n{"model": "base"}');
    const untouched = Buffer.from('{"model":"other"}');
    expect(r.apply(untouched)).toBe(untouched);
  });

  it('never changes bytes that do not contain the pattern', () => {
    const r = new ModelNameRestorer('t', 'c');
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const b = Buffer.from(bytes);
        const out = Buffer.from(r.apply(b));
        if (!b.includes('"model":"t"') && !b.includes('"model": "t"')) expect(out.equals(b)).toBe(true);
      }),
    );
  });
});
