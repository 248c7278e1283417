import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { extractUsageFromBytes, usageFromWire } from '@switchyard/express';

const KEYS = ['prompt_tokens', 'completion_tokens', 'total_tokens', 'input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cached_tokens', 'prompt_tokens_details', 'completion_tokens_details', 'Prompt_Tokens', 'x1'];

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

describe('extractUsageFromBytes', () => {
  it('agrees with JSON.parse + usageFromWire on any usage object', () => {
    fc.assert(
      fc.property(usageText, padding, (usage, pad) => {
        const text = `{"id":"x","choices":[],"usage":${pad}${usage}}`;
        const expected = usageFromWire((JSON.parse(text) as { usage: unknown }).usage);
        expect(extractUsageFromBytes(Buffer.from(text))).toEqual(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('reads the counts vLLM, SGLang and Anthropic send', () => {
    const openai = '{"usage":{"prompt_tokens":250,"total_tokens":251,"completion_tokens":1,"prompt_tokens_details":{"cached_tokens":128}}}';
    expect(extractUsageFromBytes(Buffer.from(openai))).toEqual({ promptTokens: 250, completionTokens: 1, cachedTokens: 128 });
    const anthropic = '{"usage": {"input_tokens": 12, "cache_read_input_tokens": 8, "output_tokens": 3}}';
    expect(extractUsageFromBytes(Buffer.from(anthropic))).toEqual({ promptTokens: 12, completionTokens: 3, cachedTokens: 8 });
    expect(extractUsageFromBytes(Buffer.from('{"usage":{"prompt_tokens":null,"completion_tokens":null}}'))).toBeUndefined();
  });

  it('falls back to JSON.parse for fractions and refuses malformed numbers', () => {
    expect(extractUsageFromBytes(Buffer.from('{"usage":{"prompt_tokens":1.5,"completion_tokens":2}}'))).toEqual({ promptTokens: 1.5, completionTokens: 2 });
    expect(extractUsageFromBytes(Buffer.from('{"usage":{"prompt_tokens":007}}'))).toBeUndefined();
  });
});
