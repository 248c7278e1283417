import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUILTIN_REQUEST_PARSERS, SwitchyardError, isSwitchyardError, parseRequest, sglangHttpParser, type InferenceRequest } from '@switchyard/core';

const parsers = [sglangHttpParser, ...BUILTIN_REQUEST_PARSERS];
const parse = (body: string, path = '/generate'): InferenceRequest => parseRequest({ path, headers: {}, body }, { parsers });

function errorOf(body: string, path = '/generate'): SwitchyardError {
  try {
    parse(body, path);
  } catch (err) {
    if (err instanceof SwitchyardError) return err;
    throw err;
  }
  throw new Error('expected a SwitchyardError');
}

describe('sglanghttp-parser (SGLang /generate)', () => {
  it('reads input_ids, sampling_params.max_new_tokens, extra_key as the cache salt and stream', () => {
    const req = parse(JSON.stringify({ input_ids: [10, 20], extra_key: 'salt-abc', sampling_params: { max_new_tokens: 256, temperature: 0.8 }, stream: true, text: 'ignored' }));
    expect(req).toMatchObject({ api: 'sglang-generate', model: '', stream: true, maxOutputTokens: 256, cacheSalt: 'salt-abc', prompt: { kind: 'tokens', tokenIds: [[10, 20]] } });
    // Not a model-name rewriter (as in llm-d): no decoded body, so a rewrite leaves the bytes as sent.
    expect(req.body).toBeUndefined();
  });

  it('chooses the route by path: generate with or without a leading slash, one trailing slash trimmed', () => {
    for (const path of ['/generate', 'generate']) expect(parse('{"input_ids":[1]}', path).api).toBe('sglang-generate');
    const rawBody = Buffer.from('{"input_ids":[1]}');
    expect(sglangHttpParser.parse({ path: '/generate/', matchedSuffix: undefined, headers: {}, rawBody }).api).toBe('sglang-generate');
    for (const path of ['/regenerate', '/health_generate', '/prefix/generate', '/v1/generate']) {
      const e = errorOf('{"input_ids":[1]}', path);
      expect(e.message).toBe(`unsupported path: ${path}`);
      expect(e.field).toBe('path');
    }
    // The longer vLLM claim still wins for its own route.
    expect(parse('{"model":"m","token_ids":[1]}', '/inference/v1/generate').api).toBe('vllm-generate');
  });

  it('reads sampling_params leniently, as llm-d does: malformed or negative means "not given"', () => {
    for (const sampling of [[{ max_new_tokens: 5 }], 'x', { max_new_tokens: -1 }, { max_new_tokens: '5' }, { max_new_tokens: 1.5 }, null]) {
      expect(parse(JSON.stringify({ input_ids: [1], sampling_params: sampling })).maxOutputTokens).toBeUndefined();
    }
    expect(parse('{"input_ids":[1],"extra_key":null,"stream":null}')).toMatchObject({ cacheSalt: undefined, stream: false });
  });

  it('rejects what llm-d rejects, naming the field', () => {
    const cases: [string, string, string][] = [
      ['{"input_ids":[1,2,-1]}', 'input_ids', 'input_ids must be an array of uint32 integers'],
      ['{"input_ids":[1,2.5]}', 'input_ids', 'input_ids must be an array of uint32 integers'],
      ['{"input_ids":[4294967296]}', 'input_ids', 'input_ids must be an array of uint32 integers'],
      ['{"input_ids":[[1,2],[3,4]]}', 'input_ids', 'input_ids must be an array of uint32 integers'],
      ['{"input_ids":"1 2"}', 'input_ids', 'input_ids must be an array of uint32 integers'],
      ['{"input_ids":[]}', 'input_ids', 'input_ids cannot be empty'],
      ['{"text":"hello"}', 'input_ids', 'input_ids must be provided'],
      ['{"input_ids":null}', 'input_ids', 'input_ids must be provided'],
      ['{"input_ids":[1,2],"extra_key":["a","b"]}', 'extra_key', 'extra_key must be a string'],
      ['{"input_ids":[1],"stream":"yes"}', 'stream', 'stream must be a boolean'],
    ];
    for (const [body, field, message] of cases) {
      const e = errorOf(body);
      expect(e.code, body).toBe('BAD_REQUEST');
      expect(e.field, body).toBe(field);
      expect(e.message, body).toContain(message);
    }
    expect(errorOf('[1,2]').code).toBe('BAD_REQUEST');
  });

  it('never throws anything but a 400 on arbitrary bytes and JSON', () => {
    const safe = (body: Uint8Array | string): void => {
      try {
        parseRequest({ path: '/generate', headers: {}, body }, { parsers });
      } catch (err) {
        if (!isSwitchyardError(err)) throw err;
        expect(err.status).toBe(400);
      }
    };
    fc.assert(fc.property(fc.uint8Array({ maxLength: 200 }), safe), { numRuns: 300 });
    fc.assert(fc.property(fc.json({ maxDepth: 4 }), safe), { numRuns: 300 });
    const field = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.array(fc.integer({ min: -2, max: 2 ** 32 })));
    const body = fc.record({ input_ids: field, extra_key: field, sampling_params: fc.oneof(field, fc.record({ max_new_tokens: field })), stream: field }, { requiredKeys: [] });
    fc.assert(fc.property(body, (b) => { safe(JSON.stringify(b)); }), { numRuns: 500 });
  });

  it('accepts exactly the bodies llm-d accepts (a model of its Go decoding)', () => {
    const value = fc.oneof(fc.constant(undefined), fc.constant(null), fc.boolean(), fc.string({ maxLength: 3 }), fc.integer({ min: -3, max: 2 ** 32 + 1 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.array(fc.integer({ min: -1, max: 2 ** 32 }), { maxLength: 3 }), fc.array(fc.string({ maxLength: 2 }), { maxLength: 2 }));
    const isUint32 = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 2 ** 32 - 1;
    const llmdAccepts = (b: Record<string, unknown>): boolean => {
      const stream = b['stream'];
      if (stream !== undefined && stream !== null && typeof stream !== 'boolean') return false;
      const ids = b['input_ids'];
      if (ids === undefined || ids === null || !Array.isArray(ids) || ids.length === 0 || !ids.every(isUint32)) return false;
      const key = b['extra_key'];
      return key === undefined || key === null || typeof key === 'string';
    };
    fc.assert(
      fc.property(fc.record({ input_ids: value, extra_key: value, stream: value, sampling_params: value }, { requiredKeys: [] }), (b) => {
        let accepted = true;
        try {
          parse(JSON.stringify(b));
        } catch (err) {
          if (!isSwitchyardError(err)) throw err;
          accepted = false;
        }
        expect(accepted).toBe(llmdAccepts(JSON.parse(JSON.stringify(b)) as Record<string, unknown>));
      }),
      { numRuns: 1000 },
    );
  });
});
