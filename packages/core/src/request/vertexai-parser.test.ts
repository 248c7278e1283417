import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUILTIN_REQUEST_PARSERS, SwitchyardError, createResponseBodyReader, isSwitchyardError, parseRequest, vertexAIParser, type InferenceRequest } from '@switchyard/core';

const parsers = [vertexAIParser, ...BUILTIN_REQUEST_PARSERS];
const CHAT = '/google.cloud.aiplatform.v1beta1.PredictionService/ChatCompletions';

/** Protobuf encoding helpers (length-delimited fields only, as the messages here need). */
function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n % 128) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}
const field = (num: number, bytes: Uint8Array | string): Buffer => {
  const b = typeof bytes === 'string' ? Buffer.from(bytes) : Buffer.from(bytes);
  return Buffer.concat([Buffer.from(varint(num * 8 + 2)), Buffer.from(varint(b.length)), b]);
};
const httpBody = (json: string, contentType = 'application/json'): Buffer => Buffer.concat([field(1, contentType), field(2, json)]);
/** A `ChatCompletionsRequest { endpoint = 1; http_body = 2 }` in a gRPC frame. */
const frame = (message: Uint8Array, flag = 0): Buffer => {
  const head = Buffer.alloc(5);
  head[0] = flag;
  head.writeUInt32BE(message.length, 1);
  return Buffer.concat([head, message]);
};
const request = (json: string): Buffer => frame(Buffer.concat([field(1, 'projects/p/locations/l/endpoints/e'), field(2, httpBody(json))]));

const parse = (body: Uint8Array, path = CHAT): InferenceRequest => parseRequest({ path, headers: {}, body }, { parsers });
function errorOf(body: Uint8Array, path = CHAT): SwitchyardError {
  try {
    parse(body, path);
  } catch (err) {
    if (err instanceof SwitchyardError) return err;
    throw err;
  }
  throw new Error('expected a SwitchyardError');
}

describe('vertexai-parser (Vertex AI PredictionService over gRPC)', () => {
  it('reads ChatCompletions as OpenAI chat and RawPredict / StreamRawPredict as the Responses API', () => {
    const chat = parse(request('{"model":"gemma","messages":[{"role":"user","content":"hi"}],"max_tokens":9,"stream":true}'));
    expect(chat).toMatchObject({ api: 'openai-chat-completions', model: 'gemma', stream: true, maxOutputTokens: 9, prompt: { kind: 'chat', messages: [{ role: 'user', content: 'hi' }] } });
    // The body stays the gRPC frame: a model rename must not rewrite inside protobuf.
    expect(chat.body).toBeUndefined();
    for (const method of ['StreamRawPredict', 'RawPredict']) {
      expect(parse(request('{"model":"m","input":"x"}'), `/google.cloud.aiplatform.v1.PredictionService/${method}`)).toMatchObject({ api: 'openai-responses', model: 'm', prompt: { kind: 'chat' } });
    }
  });

  it('merges repeated http_body fields as protobuf does and ignores unknown fields and bytes after the frame', () => {
    const msg = Buffer.concat([field(2, httpBody('{"model":"first","messages":[]}')), Buffer.from([0x18, 0x05]), field(2, field(1, 'text/plain')), field(9, 'x')]);
    expect(parse(Buffer.concat([frame(msg), Buffer.from('trailing')])).model).toBe('first');
    const overridden = Buffer.concat([field(2, httpBody('{"model":"first","messages":[]}')), field(2, field(2, '{"model":"second","messages":[]}'))]);
    expect(parse(frame(overridden)).model).toBe('second');
  });

  it('rejects what llm-d rejects, naming the field', () => {
    const cases: [Uint8Array, string, RegExp][] = [
      [Buffer.from([0, 0, 0]), 'body', /invalid or unsupported gRPC payload: invalid gRPC frame: expected at least 5 bytes/],
      [frame(Buffer.concat([field(2, httpBody('{}'))]), 1), 'body', /compressed gRPC payload is not supported/],
      [Buffer.from([0, 0, 0, 0, 9, 1]), 'body', /incomplete gRPC payload: header indicates 9 bytes, but only 1/],
      [frame(field(1, 'endpoint only')), 'http_body', /ChatCompletionsRequest has no HttpBody/],
      [frame(Buffer.from([0x12, 0x05, 0x01])), 'body', /unmarshaling ChatCompletionsRequest: malformed protobuf/],
      [request('not json'), 'http_body.data', /parsing ChatCompletionsRequest: request body is not valid JSON/],
      [frame(field(2, Buffer.alloc(0))), 'http_body.data', /parsing ChatCompletionsRequest/],
    ];
    for (const [body, f, message] of cases) {
      const e = errorOf(body);
      expect(e.code).toBe('BAD_REQUEST');
      expect(e.field).toBe(f);
      expect(e.message).toMatch(message);
    }
  });

  it('never throws anything but a 400 on arbitrary bytes, frames and wrapped JSON', () => {
    const safe = (body: Uint8Array): void => {
      try {
        parse(body);
      } catch (err) {
        if (!isSwitchyardError(err)) throw err;
        expect(err.status).toBe(400);
      }
    };
    fc.assert(fc.property(fc.uint8Array({ maxLength: 200 }), safe), { numRuns: 500 });
    fc.assert(fc.property(fc.uint8Array({ maxLength: 120 }), (m) => { safe(frame(m)); }), { numRuns: 500 });
    fc.assert(fc.property(fc.json({ maxDepth: 3 }), (j) => { safe(request(j)); }), { numRuns: 300 });
  });

  it('reads usage from the JSON a gRPC response wraps, and never rewrites it', () => {
    const json = '{"model":"target","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":4}}';
    const body = frame(httpBody(json));
    const reader = createResponseBodyReader({ contentType: 'application/grpc', restoreModel: { from: 'target', to: 'client' } });
    expect(reader.kind).toBe('grpc');
    expect(reader.rewrites).toBe(false);
    expect(Buffer.from(reader.push(body) ?? [])).toEqual(body);
    reader.end();
    expect(reader.usage).toEqual({ promptTokens: 12, completionTokens: 4 });
  });
});
