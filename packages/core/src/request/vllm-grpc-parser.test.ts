import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUILTIN_REQUEST_PARSERS, SwitchyardError, parseRequest, vllmGrpcParser, type InferenceRequest } from '@switchyard/core';

const parsers = [vllmGrpcParser, ...BUILTIN_REQUEST_PARSERS];
const GENERATE = '/vllm.grpc.engine.VllmEngine/Generate';
const EMBED = '/vllm.grpc.engine.VllmEngine/Embed';

/** Protobuf encoding helpers for the test messages. */
function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n % 128) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}
const tag = (num: number, wireType: number): Buffer => Buffer.from(varint(num * 8 + wireType));
const bytesField = (num: number, bytes: Uint8Array | string): Buffer => {
  const b = Buffer.from(bytes);
  return Buffer.concat([tag(num, 2), Buffer.from(varint(b.length)), b]);
};
const varintField = (num: number, v: number): Buffer => Buffer.concat([tag(num, 0), Buffer.from(varint(v))]);
const packed = (num: number, ids: readonly number[]): Buffer => bytesField(num, Buffer.from(ids.flatMap(varint)));
const unpacked = (num: number, ids: readonly number[]): Buffer => Buffer.concat(ids.map((id) => varintField(num, id)));
const frame = (message: Uint8Array, flag = 0): Buffer => {
  const head = Buffer.alloc(5);
  head[0] = flag;
  head.writeUInt32BE(message.length, 1);
  return Buffer.concat([head, message]);
};

const parse = (body: Uint8Array, path = GENERATE): InferenceRequest => parseRequest({ path, headers: {}, body }, { parsers });
function errorOf(body: Uint8Array, path = GENERATE): SwitchyardError {
  try {
    parse(body, path);
  } catch (err) {
    if (err instanceof SwitchyardError) return err;
    throw err;
  }
  throw new Error('expected a SwitchyardError');
}

describe('vllmgrpc-parser (vLLM gRPC engine API, request side)', () => {
  it('reads a text Generate as a completions prompt with stream and sampling_params.max_tokens', () => {
    const msg = Buffer.concat([bytesField(1, 'req-1'), bytesField(3, 'hello world'), bytesField(4, varintField(8, 64)), varintField(5, 1)]);
    const req = parse(frame(msg));
    expect(req).toMatchObject({ api: 'vllm-generate', model: '', stream: true, maxOutputTokens: 64, prompt: { kind: 'text', texts: ['hello world'] } });
  });

  it('reads tokenized input_ids, packed or not, merging repeated tokenized fields as protobuf does', () => {
    const tokenized = Buffer.concat([bytesField(1, 'hi'), packed(2, [1, 300, 70000])]);
    expect(parse(frame(bytesField(2, tokenized))).prompt).toEqual({ kind: 'tokens', tokenIds: [[1, 300, 70000]] });
    const merged = Buffer.concat([bytesField(2, unpacked(2, [5, 6])), bytesField(2, packed(2, [7]))]);
    expect(parse(frame(merged)).prompt).toEqual({ kind: 'tokens', tokenIds: [[5, 6, 7]] });
    // The oneof's last-set member wins: text after tokenized replaces it.
    expect(parse(frame(Buffer.concat([bytesField(2, packed(2, [9])), bytesField(3, 'later')]))).prompt).toEqual({ kind: 'text', texts: ['later'] });
  });

  it('reads an Embed request from its tokenized input and rejects one without', () => {
    const req = parse(frame(Buffer.concat([bytesField(1, 'e'), bytesField(2, packed(2, [4, 5]))])), EMBED);
    expect(req).toMatchObject({ api: 'openai-embeddings', stream: false, prompt: { kind: 'tokens', tokenIds: [[4, 5]] } });
    const err = errorOf(frame(bytesField(1, 'e')), EMBED);
    expect(err).toMatchObject({ code: 'BAD_REQUEST', field: 'tokenized' });
  });

  it('rejects a Generate with neither input, naming the field, and forwards other methods unread', () => {
    expect(errorOf(frame(bytesField(1, 'r')))).toMatchObject({ code: 'BAD_REQUEST', field: 'input', message: 'not supported request inputType' });
    expect(parse(frame(Buffer.from([0xff])), '/vllm.grpc.engine.VllmEngine/GetModelInfo').api).toBe('passthrough');
  });

  it('rejects bad frames and malformed protobuf with a 400 naming the field', () => {
    expect(errorOf(Buffer.from([0, 0, 0]))).toMatchObject({ code: 'BAD_REQUEST', field: 'body' });
    expect(errorOf(frame(bytesField(3, 'x'), 1)).message).toMatch(/compressed/);
    expect(errorOf(frame(Buffer.from([0x1a, 0x05, 0x61]))).message).toMatch(/malformed protobuf/);
    expect(errorOf(frame(bytesField(3, Buffer.from([0xff, 0xfe])))).field).toBe('text');
    expect(errorOf(frame(bytesField(2, Buffer.from([0x12, 0x01, 0x80])))).field).toBe('tokenized.input_ids');
    expect(errorOf(frame(bytesField(2, Buffer.from([0x12, 0x02, 0x80])))).field).toBe('tokenized');
  });

  it('property: any encoding of a valid message gives the same result; garbage only ever throws the contract error', () => {
    const ids = fc.array(fc.integer({ min: 0, max: 0xffff_ffff }), { minLength: 1, maxLength: 20 });
    fc.assert(
      fc.property(ids, fc.array(fc.boolean(), { minLength: 20, maxLength: 20 }), fc.boolean(), fc.nat({ max: 4096 }), fc.boolean(), (tokens, splits, stream, max, unknownFirst) => {
        // Split the ids into several tokenized fields, each packed or unpacked.
        const parts: Buffer[] = [];
        let current: number[] = [];
        tokens.forEach((id, i) => {
          current.push(id);
          if (splits[i] === true || i === tokens.length - 1) {
            parts.push(bytesField(2, splits[(i + 1) % 20] === true ? packed(2, current) : unpacked(2, current)));
            current = [];
          }
        });
        const extras = [bytesField(1, 'id'), bytesField(4, varintField(8, max)), varintField(5, stream ? 1 : 0), bytesField(99, 'unknown')];
        const msg = Buffer.concat(unknownFirst ? [...extras, ...parts] : [...parts, ...extras]);
        const req = parse(frame(msg));
        expect(req.prompt).toEqual({ kind: 'tokens', tokenIds: [tokens] });
        expect(req.stream).toBe(stream);
        expect(req.maxOutputTokens).toBe(max);
      }),
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.constantFrom(GENERATE, EMBED), (garbage, path) => {
        for (const body of [garbage, frame(garbage)]) {
          try {
            parse(body, path);
          } catch (err) {
            expect(err).toBeInstanceOf(SwitchyardError);
            expect((err as SwitchyardError).code).toBe('BAD_REQUEST');
          }
        }
      }),
    );
  });
});
