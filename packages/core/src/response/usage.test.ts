import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mergeUsage } from '@switchyard/core';
import { extractUsage, readUsage, usageFromWire } from '@switchyard/core/internal';

const KEYS = [
  'prompt_tokens',
  'completion_tokens',
  'total_tokens',
  'input_tokens',
  'output_tokens',
  'cache_read_input_tokens',
  'cached_tokens',
  'prompt_tokens_details',
  'input_tokens_details',
  'completion_tokens_details',
  'Prompt_Tokens',
  'x1',
];

/** JSON text of a value a usage field may hold, valid or odd. */
const scalar = fc.oneof(
  fc.nat({ max: 100_000 }).map(String),
  fc.constantFrom('0', 'null', '-1', '1.5', '2e3', '1234567890123456789', 'true', '"12"', '[1]', '999999999999999'),
);
const padding = fc.constantFrom('', ' ', '\n  ', '\t');

/** An object as key/value pairs (duplicates allowed, as in real JSON text). */
function objectText(value: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .array(fc.tuple(fc.constantFrom(...KEYS), value, padding), { maxLength: 6 })
    .map((pairs) => `{${pairs.map(([k, v, p]) => `${p}"${k}"${p}:${p}${v}`).join(',')}}`);
}

const usageText = objectText(fc.oneof({ weight: 4, arbitrary: scalar }, { weight: 1, arbitrary: objectText(scalar) }));
const bytes = (s: string): Buffer => Buffer.from(s);

describe('extractUsage', () => {
  it('agrees with JSON.parse + usageFromWire on any usage object (the byte scanner is exact)', () => {
    fc.assert(
      fc.property(usageText, padding, (usage, pad) => {
        const text = `{"id":"x","choices":[],"usage":${pad}${usage}}`;
        const expected = usageFromWire((JSON.parse(text) as { usage: unknown }).usage);
        expect(extractUsage(bytes(text))).toEqual(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('reads the counts of every API kind: chat/completions, Responses, Anthropic', () => {
    const openai = '{"usage":{"prompt_tokens":250,"total_tokens":251,"completion_tokens":1,"prompt_tokens_details":{"cached_tokens":128}}}';
    expect(extractUsage(bytes(openai))).toEqual({ promptTokens: 250, completionTokens: 1, cachedTokens: 128 });
    const responses = '{"object":"response","usage":{"input_tokens":40,"input_tokens_details":{"cached_tokens":32},"output_tokens":5,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":45}}';
    expect(extractUsage(bytes(responses))).toEqual({ promptTokens: 40, completionTokens: 5, cachedTokens: 32 });
    const anthropic = '{"usage": {"input_tokens": 12, "cache_read_input_tokens": 8, "output_tokens": 3}}';
    expect(extractUsage(bytes(anthropic))).toEqual({ promptTokens: 12, completionTokens: 3, cachedTokens: 8 });
    expect(extractUsage(bytes('{"usage":{"prompt_tokens":null,"completion_tokens":null}}'))).toBeUndefined();
  });

  it('skips escaped keys, falls back to JSON.parse for fractions and refuses malformed numbers', () => {
    expect(extractUsage(bytes('{"usage":null}'))).toBeUndefined();
    expect(extractUsage(bytes('{"a":"\\"usage\\": {","usage":{"prompt_tokens":1,"completion_tokens":2}}'))).toEqual({ promptTokens: 1, completionTokens: 2 });
    expect(extractUsage(bytes('{"usage":{"prompt_tokens":1.5,"completion_tokens":2}}'))).toEqual({ promptTokens: 1.5, completionTokens: 2 });
    expect(extractUsage(bytes('{"usage":{"prompt_tokens":007}}'))).toBeUndefined();
  });

  it('never throws on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (b) => {
        extractUsage(b);
        extractUsage(Buffer.concat([bytes('{"usage":'), b]));
      }),
    );
  });
});

describe('usageFromWire, readUsage and mergeUsage', () => {
  it('reads every shape and rejects junk', () => {
    expect(usageFromWire({ input_tokens: 2, output_tokens: 3, cache_read_input_tokens: 1 })).toEqual({ promptTokens: 2, completionTokens: 3, cachedTokens: 1 });
    expect(usageFromWire({ input_tokens: 2, output_tokens: 3, input_tokens_details: { cached_tokens: 2 } })).toEqual({ promptTokens: 2, completionTokens: 3, cachedTokens: 2 });
    expect(usageFromWire({ prompt_tokens: -1 })).toBeUndefined();
    expect(usageFromWire(null)).toBeUndefined();
    expect(usageFromWire([1])).toBeUndefined();
  });

  it('finds a document’s usage at the top level, in response.usage and in message.usage', () => {
    expect(readUsage({ usage: { prompt_tokens: 1, completion_tokens: 2 } })).toEqual({ promptTokens: 1, completionTokens: 2 });
    expect(readUsage({ type: 'response.completed', response: { usage: { input_tokens: 5, output_tokens: 6 } } })).toEqual({ promptTokens: 5, completionTokens: 6 });
    expect(readUsage({ type: 'message_start', message: { usage: { input_tokens: 25, output_tokens: 1 } } })).toEqual({ promptTokens: 25, completionTokens: 1 });
    expect(readUsage({ usage: null })).toBeUndefined();
    expect(readUsage('usage')).toBeUndefined();
  });

  it('keeps the largest value of each field', () => {
    expect(mergeUsage(undefined, { promptTokens: 1, completionTokens: 0 })).toEqual({ promptTokens: 1, completionTokens: 0 });
    expect(mergeUsage({ promptTokens: 25, completionTokens: 1, cachedTokens: 3 }, { promptTokens: 0, completionTokens: 15 })).toEqual({ promptTokens: 25, completionTokens: 15, cachedTokens: 3 });
  });
});
