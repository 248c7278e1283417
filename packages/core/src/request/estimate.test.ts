import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimatePromptTokens } from '@switchyard/core';
import { utf8ByteLength } from '@switchyard/core/internal';

describe('utf8ByteLength', () => {
  it('matches TextEncoder for any string, including lone surrogates', () => {
    const enc = new TextEncoder();
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => { expect(utf8ByteLength(s)).toBe(enc.encode(s).length); }));
    expect(utf8ByteLength('\ud800x')).toBe(4);
    expect(utf8ByteLength('😀')).toBe(4);
  });
});

describe('estimatePromptTokens', () => {
  it('uses bytes/4 rounded up per text prompt', () => {
    expect(estimatePromptTokens({ kind: 'text', texts: ['abcde', 'abcd', ''] })).toBe(2 + 1 + 0);
    expect(estimatePromptTokens({ kind: 'text', texts: ['é'] })).toBe(1);
  });

  it('sums chat contents, tool calls and tools before rounding', () => {
    expect(
      estimatePromptTokens({
        kind: 'chat',
        messages: [{ role: 'user', content: 'abc' }, { role: 'assistant', content: '', toolCallsJson: 'ab' }],
        toolsJson: 'abc',
      }),
    ).toBe(2);
  });

  it('counts tokens exactly and returns 0 without a prompt', () => {
    expect(estimatePromptTokens({ kind: 'tokens', tokenIds: [[1, 2], [3]] })).toBe(3);
    expect(estimatePromptTokens({ kind: 'none' })).toBe(0);
  });
});
