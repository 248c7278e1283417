import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUILTIN_REQUEST_PARSERS, estimatePromptTokens, isSwitchyardError, parseRequest } from '@switchyard/core';
import { utf8ByteLength } from '@switchyard/core/internal';

const paths = fc.constantFrom(
  '/v1/chat/completions',
  '/v1/completions',
  '/v1/embeddings',
  '/v1/responses',
  '/v1/messages',
  '/v1/messages/count_tokens',
  '/inference/v1/generate',
  '/v1/models',
  '',
);

/** Runs parseRequest and checks it either returns or throws a SwitchyardError with a 4xx status. */
function mustBeSafe(path: string, body: Uint8Array | string): void {
  try {
    const req = parseRequest({ path, headers: {}, body });
    expect(estimatePromptTokens(req.prompt)).toBeGreaterThanOrEqual(0);
  } catch (err) {
    if (!isSwitchyardError(err)) throw err;
    expect([400, 413]).toContain(err.status);
  }
}

// A JSON value generator that hits the shapes parsers look at (model, messages, prompt, ...).
const field = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.oneof(fc.string(), fc.nat(), fc.array(fc.nat(), { maxLength: 3 }))), fc.jsonValue({ maxDepth: 3 }));
const messageLike = fc.record(
  { role: fc.oneof(fc.string(), fc.nat()), content: fc.oneof(fc.string(), fc.constant(null), fc.array(fc.record({ type: fc.constantFrom('text', 'image_url', 'input_text', 'tool_use', 'x'), text: field }, { requiredKeys: [] }))) },
  { requiredKeys: [] },
);
const bodyLike = fc.record(
  {
    model: fc.oneof(fc.string(), field),
    messages: fc.oneof(fc.array(messageLike, { maxLength: 4 }), field),
    prompt: field,
    input: fc.oneof(field, fc.array(messageLike, { maxLength: 3 })),
    token_ids: field,
    system: field,
    tools: field,
    stream: field,
    max_tokens: field,
    max_completion_tokens: field,
    max_output_tokens: field,
    sampling_params: fc.oneof(field, fc.record({ max_tokens: field })),
    cache_salt: field,
  },
  { requiredKeys: [] },
);

describe('parseRequest fuzzing', () => {
  it('never throws a non-SwitchyardError on arbitrary bytes', () => {
    fc.assert(fc.property(paths, fc.uint8Array({ maxLength: 300 }), mustBeSafe), { numRuns: 500 });
  });

  it('never throws a non-SwitchyardError on arbitrary strings and JSON values', () => {
    fc.assert(fc.property(paths, fc.oneof(fc.string(), fc.json({ maxDepth: 4 })), mustBeSafe), { numRuns: 500 });
  });

  it('never throws a non-SwitchyardError on request-shaped JSON', () => {
    fc.assert(fc.property(paths, bodyLike, (path, body) => { mustBeSafe(path, JSON.stringify(body)); }), { numRuns: 1000 });
  });

  it('survives pathologically nested tools', () => {
    const deep = '['.repeat(20_000) + ']'.repeat(20_000);
    mustBeSafe('/v1/chat/completions', `{"model":"m","messages":[],"tools":${deep}}`);
  });

  it('accepts every well-formed chat request and keeps the model and sizes', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.array(fc.record({ role: fc.constantFrom('user', 'assistant', 'system'), content: fc.string() })), (model, messages) => {
        const body = JSON.stringify({ model, messages });
        const req = parseRequest({ path: '/v1/chat/completions', headers: {}, body }, { parsers: BUILTIN_REQUEST_PARSERS });
        expect(req.model).toBe(model);
        expect(req.byteSize).toBe(utf8ByteLength(body));
        expect(req.prompt).toEqual({ kind: 'chat', messages, toolsJson: undefined });
      }),
    );
  });
});
