import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_JSON_DEPTH, parseRequest } from '@switchyard/core';
import { exceedsJsonDepth } from '@switchyard/core/internal';

const nested = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('JSON depth limit', () => {
  it('measures nesting like a recursive reference, for random values', () => {
    const reference = (v: unknown): number => (typeof v !== 'object' || v === null ? 0 : 1 + Math.max(0, ...Object.values(v).map(reference)));
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 10 }), (value, limit) => {
        expect(exceedsJsonDepth(value, limit)).toBe(reference(value) > limit);
      }),
    );
  });

  it('rejects bodies deeper than maxJsonDepth with a 400 naming the limit; accepts the limit itself', () => {
    const body = (depth: number): string => `{"model":"m","prompt":"hi","x":${nested(depth - 1)}}`;
    expect(() => parseRequest({ path: '/v1/completions', headers: {}, body: body(DEFAULT_MAX_JSON_DEPTH + 1) })).toThrow(/deeper than the limit of 512 levels \(maxJsonDepth\)/);
    expect(parseRequest({ path: '/v1/completions', headers: {}, body: body(DEFAULT_MAX_JSON_DEPTH) }).model).toBe('m');
    expect(() => parseRequest({ path: '/v1/completions', headers: {}, body: body(11) }, { maxJsonDepth: 10 })).toThrow(expect.objectContaining({ code: 'BAD_REQUEST', status: 400 }));
    expect(() => parseRequest({ path: '/v1/completions', headers: {}, body: body(100_000) })).toThrow(expect.objectContaining({ code: 'BAD_REQUEST' }));
  });
});
