import { describe, expect, it } from 'vitest';
import { BUILTIN_REQUEST_PARSERS, SwitchyardError, anthropicParser, openAIParser, parseRequest, passthroughParser, type RequestParser } from '@switchyard/core';
import { resolveRequestPath, selectParser } from '@switchyard/core/internal';

const chat = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });

function errorOf(fn: () => unknown): SwitchyardError {
  try {
    fn();
  } catch (err) {
    if (err instanceof SwitchyardError) return err;
    throw err;
  }
  throw new Error('expected a SwitchyardError');
}

describe('resolveRequestPath', () => {
  it('takes the explicit path, then :path, x-original-path, x-forwarded-path, then the default', () => {
    const all = { ':path': '/a', 'x-original-path': '/b', 'x-forwarded-path': '/c' };
    expect(resolveRequestPath(all, '/x?y=1')).toBe('/x');
    expect(resolveRequestPath(all)).toBe('/a');
    expect(resolveRequestPath({ 'x-original-path': '/b?q', 'x-forwarded-path': '/c' })).toBe('/b');
    expect(resolveRequestPath({ 'x-forwarded-path': '/c' }, '')).toBe('/c');
    expect(resolveRequestPath({})).toBe('/v1/completions');
  });
});

describe('selectParser', () => {
  it('picks the longest suffix by plain endsWith', () => {
    expect(selectParser('/v1/chat/completions', BUILTIN_REQUEST_PARSERS)).toMatchObject({ parser: openAIParser, matchedSuffix: 'chat/completions' });
    expect(selectParser('/v1/completions', BUILTIN_REQUEST_PARSERS)?.matchedSuffix).toBe('completions');
    // No segment boundary: "/v1/mycompletions" still ends with "completions", as in llm-d.
    expect(selectParser('/v1/mycompletions', BUILTIN_REQUEST_PARSERS)?.matchedSuffix).toBe('completions');
    expect(selectParser('/v1/messages/count_tokens', BUILTIN_REQUEST_PARSERS)).toMatchObject({ parser: anthropicParser, matchedSuffix: 'messages/count_tokens' });
    expect(selectParser('/inference/v1/generate', BUILTIN_REQUEST_PARSERS)?.parser.type).toBe('vllmhttp-parser');
  });

  it('falls back to the first parser claiming no paths, and to nothing without one', () => {
    const other: RequestParser = { ...passthroughParser, type: 'second-fallback' };
    expect(selectParser('/v1/models', [openAIParser, passthroughParser, other])).toEqual({ parser: passthroughParser, matchedSuffix: undefined });
    expect(selectParser('/v1/models', [openAIParser, anthropicParser])).toBeUndefined();
  });

  it('gives ties to the earlier parser', () => {
    const a: RequestParser = { ...passthroughParser, type: 'a', paths: ['x'] };
    const b: RequestParser = { ...passthroughParser, type: 'b', paths: ['x'] };
    expect(selectParser('/x', [a, b])?.parser.type).toBe('a');
    expect(selectParser('/x', [b, a])?.parser.type).toBe('b');
  });
});

describe('parseRequest', () => {
  it('parses a chat request end to end', () => {
    const req = parseRequest({ path: '/v1/chat/completions?x=1', headers: { 'X-Request-Id': 'r-1', 'Content-Type': 'application/json' }, body: chat });
    expect(req).toMatchObject({
      id: 'r-1',
      path: '/v1/chat/completions',
      api: 'openai-chat-completions',
      model: 'm',
      stream: false,
      maxOutputTokens: undefined,
      cacheSalt: undefined,
      byteSize: Buffer.byteLength(chat),
      prompt: { kind: 'chat', messages: [{ role: 'user', content: 'hi' }], toolsJson: undefined },
    });
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.body).toEqual(JSON.parse(chat));
    expect(new TextDecoder().decode(req.rawBody)).toBe(chat);
  });

  it('reads the path from headers and defaults to /v1/completions', () => {
    expect(parseRequest({ headers: { ':path': '/v1/embeddings' }, body: '{"model":"e","input":"x"}' }).api).toBe('openai-embeddings');
    expect(parseRequest({ headers: {}, body: '{"model":"c","prompt":"x"}' })).toMatchObject({ api: 'openai-completions', path: '/v1/completions' });
  });

  it('generates an id when x-request-id is absent or empty', () => {
    let n = 0;
    const generateId = (): string => `gen-${++n}`;
    expect(parseRequest({ headers: {}, body: chat }, { generateId }).id).toBe('gen-1');
    expect(parseRequest({ headers: { 'x-request-id': '' }, body: chat }, { generateId }).id).toBe('gen-2');
    expect(parseRequest({ headers: {}, body: chat }).id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('accepts bytes and strings alike and reports the UTF-8 size', () => {
    const body = JSON.stringify({ model: 'm', prompt: 'héllo ✓' });
    const bytes = new TextEncoder().encode(body);
    const a = parseRequest({ headers: {}, body });
    const b = parseRequest({ headers: {}, body: bytes });
    expect(a.byteSize).toBe(bytes.length);
    expect(b.byteSize).toBe(bytes.length);
    expect(a.prompt).toEqual(b.prompt);
  });

  it('does not parse bodyless requests', () => {
    const req = parseRequest({ path: '/v1/models', headers: {} });
    expect(req).toMatchObject({ api: 'passthrough', model: '', byteSize: 0, body: undefined, prompt: { kind: 'none' } });
    expect(parseRequest({ path: '/v1/chat/completions', headers: {}, body: '' }).api).toBe('passthrough');
  });

  it('passes unclaimed paths through with the default list and rejects them with an explicit list', () => {
    const pass = parseRequest({ path: '/v1/models', headers: {}, body: '{"model":"m","stream":true}' });
    expect(pass).toMatchObject({ api: 'passthrough', model: 'm', stream: true });
    expect(parseRequest({ path: '/custom', headers: {}, body: 'not json' })).toMatchObject({ api: 'passthrough', model: '', body: undefined });
    const err = errorOf(() => parseRequest({ path: '/v1/models', headers: {}, body: chat }, { parsers: [openAIParser] }));
    expect(err.code).toBe('BAD_REQUEST');
    expect(err.message).toContain('/v1/models');
  });

  it('rejects bodies over the limit naming both sizes', () => {
    const err = errorOf(() => parseRequest({ headers: {}, body: chat }, { maxBodyBytes: 10 }));
    expect(err.code).toBe('PAYLOAD_TOO_LARGE');
    expect(err.status).toBe(413);
    expect(err.message).toContain(`${Buffer.byteLength(chat)} bytes`);
    expect(err.message).toContain('10 bytes');
    expect(parseRequest({ headers: {}, body: chat }, { maxBodyBytes: Buffer.byteLength(chat) }).model).toBe('m');
  });

  it('reports malformed JSON, non-object bodies and a missing model as 400', () => {
    const bad = errorOf(() => parseRequest({ path: '/v1/chat/completions', headers: {}, body: '{"model":' }));
    expect(bad.code).toBe('BAD_REQUEST');
    expect(bad.status).toBe(400);
    expect(bad.message).toMatch(/^request body is not valid JSON: /);
    expect(errorOf(() => parseRequest({ path: '/v1/chat/completions', headers: {}, body: '[1]' })).message).toBe('request body must be a JSON object, got array');
    for (const body of ['{"messages":[]}', '{"model":"","messages":[]}', '{"model":null,"messages":[]}']) {
      expect(errorOf(() => parseRequest({ path: '/v1/chat/completions', headers: {}, body })).message).toBe('missing required field "model"');
    }
    expect(errorOf(() => parseRequest({ path: '/v1/chat/completions', headers: {}, body: '{"model":3,"messages":[]}' })).message).toBe(
      'field "model" must be a non-empty string, got number',
    );
  });

  it('wraps unexpected parser failures as BAD_REQUEST naming the parser', () => {
    const broken: RequestParser = { type: 'broken-parser', paths: ['x'], parse: () => { throw new TypeError('boom'); } };
    const err = errorOf(() => parseRequest({ path: '/x', headers: {}, body: '{}' }, { parsers: [broken] }));
    expect(err.code).toBe('BAD_REQUEST');
    expect(err.message).toBe('request body could not be parsed by broken-parser: boom');
  });
});
