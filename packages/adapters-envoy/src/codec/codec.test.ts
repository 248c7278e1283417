import * as protoLoader from '@grpc/proto-loader';
import { fileURLToPath } from 'node:url';
import {
  decodeHealthCheckRequest,
  decodeHealthCheckResponse,
  decodeProcessingRequest,
  decodeProcessingResponse,
  encodeHealthCheckRequest,
  encodeHealthCheckResponse,
  encodeProcessingRequest,
  encodeProcessingResponse,
  type ProcessingRequest,
  type ProcessingResponse,
  type WireStruct,
  type WireValue,
} from '@switchyard/envoy';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

/* The reference implementation: protobufjs through proto-loader, reading our .proto files. */
const def = protoLoader.loadSync(['envoy/service/ext_proc/v3/external_processor.proto', 'grpc/health/v1/health.proto'], {
  includeDirs: [fileURLToPath(new URL('../../proto/', import.meta.url))],
  keepCase: true,
  oneofs: true,
  defaults: false,
  enums: Number,
  longs: Number,
});
type Method = { requestSerialize(v: unknown): Buffer; requestDeserialize(b: Buffer): unknown; responseSerialize(v: unknown): Buffer; responseDeserialize(b: Buffer): unknown };
const proc = (def['envoy.service.ext_proc.v3.ExternalProcessor'] as unknown as { Process: Method }).Process;
const check = (def['grpc.health.v1.Health'] as unknown as { Check: Method }).Check;

/** Canonical form: bytes as hex, discriminators and proto3 defaults dropped. */
function canon(v: unknown): unknown {
  if (v instanceof Uint8Array) return v.length === 0 ? undefined : `hex:${Buffer.from(v).toString('hex')}`;
  if (Array.isArray(v)) return v.map(canon);
  if (typeof v === 'object' && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if (k === 'kind' || k === 'request' || k === 'response' && typeof x === 'string' || k === 'mutation') continue;
      const c = canon(x);
      if (c === undefined || c === false || c === '' || (Array.isArray(c) && c.length === 0)) continue;
      // Empty maps are absent on the wire.
      if ((k === 'fields' || k === 'filter_metadata') && typeof c === 'object' && c !== null && Object.keys(c).length === 0) continue;
      out[k] = c;
    }
    return out;
  }
  return v;
}

const key = fc.stringMatching(/^[a-z:][a-z0-9-]{0,20}$/);
const bytes = fc.oneof(fc.uint8Array({ maxLength: 40 }), fc.uint8Array({ minLength: 250, maxLength: 700 }));
const headerMap = fc.array(fc.record({ key, raw_value: bytes.map((b) => Buffer.from(b)) }), { maxLength: 5 }).map((headers) => ({ headers }));
const value: fc.Arbitrary<WireValue> = fc.letrec<{ value: WireValue; struct: WireStruct }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string().map((s) => ({ stringValue: s })),
    fc.double({ noNaN: true }).map((n) => ({ numberValue: n })),
    fc.boolean().map((b) => ({ boolValue: b })),
    fc.constant({ nullValue: 0 }),
    tie('struct').map((s) => ({ structValue: s })),
    fc.array(tie('value'), { maxLength: 3 }).map((values) => ({ listValue: { values } })),
  ),
  struct: fc.dictionary(key, tie('value'), { maxKeys: 3 }).map((fields) => ({ fields })),
})).value;
const struct = fc.dictionary(key, value, { maxKeys: 4 }).map((fields): WireStruct => ({ fields }));
const metadata = fc.option(fc.dictionary(fc.string({ maxLength: 20 }), struct, { maxKeys: 3 }).map((filter_metadata) => ({ filter_metadata })), { nil: undefined });

const request: fc.Arbitrary<ProcessingRequest> = fc
  .tuple(
    fc.oneof(
      fc.record({ request_headers: fc.record({ headers: headerMap, end_of_stream: fc.boolean() }) }),
      fc.record({ response_headers: fc.record({ headers: headerMap, end_of_stream: fc.boolean() }) }),
      fc.record({ request_body: fc.record({ body: bytes.map((b) => Buffer.from(b)), end_of_stream: fc.boolean() }) }),
      fc.record({ response_body: fc.record({ body: bytes.map((b) => Buffer.from(b)), end_of_stream: fc.boolean() }) }),
      fc.record({ request_trailers: fc.record({ trailers: headerMap }) }),
      fc.record({ response_trailers: fc.record({ trailers: headerMap }) }),
    ),
    metadata,
    fc.boolean(),
  )
  .map(([oneof, meta, obs]) => ({ ...oneof, ...(meta === undefined ? {} : { metadata_context: meta }), observability_mode: obs }));

const mutation = fc.record({
  set_headers: fc.array(fc.record({ header: fc.record({ key, raw_value: bytes.map((b) => Buffer.from(b)) }) }), { maxLength: 4 }),
  remove_headers: fc.array(key, { maxLength: 3 }),
});
const common = fc.record(
  {
    header_mutation: mutation,
    body_mutation: fc.record({ streamed_response: fc.record({ body: bytes.map((b) => Buffer.from(b)), end_of_stream: fc.boolean() }) }),
    clear_route_cache: fc.boolean(),
  },
  { requiredKeys: [] },
);
const response: fc.Arbitrary<ProcessingResponse> = fc
  .tuple(
    fc.oneof(
      common.map((response) => ({ request_headers: { response } })),
      common.map((response) => ({ response_headers: { response } })),
      common.map((response) => ({ request_body: { response } })),
      common.map((response) => ({ response_body: { response } })),
      fc.option(mutation, { nil: undefined }).map((m) => ({ request_trailers: m === undefined ? {} : { header_mutation: m } })),
      fc.option(mutation, { nil: undefined }).map((m) => ({ response_trailers: m === undefined ? {} : { header_mutation: m } })),
      fc.record({ status: fc.record({ code: fc.integer({ min: 100, max: 599 }) }), headers: mutation, body: bytes.map((b) => Buffer.from(b)), details: fc.stringMatching(/^[a-z_]{0,20}$/) }).map((immediate_response) => ({ immediate_response })),
    ),
    fc.option(struct, { nil: undefined }),
  )
  .map(([oneof, meta]) => (meta === undefined ? oneof : { ...oneof, dynamic_metadata: meta }));

describe('ext_proc codec is wire-compatible with protobufjs', () => {
  it('decodes what protobufjs encodes (ProcessingRequest)', () => {
    fc.assert(
      fc.property(request, (m) => {
        expect(canon(decodeProcessingRequest(proc.requestSerialize(m)))).toEqual(canon(m));
      }),
    );
  });

  it('encodes what protobufjs decodes (ProcessingRequest)', () => {
    fc.assert(
      fc.property(request, (m) => {
        expect(canon(proc.requestDeserialize(encodeProcessingRequest(m)))).toEqual(canon(m));
      }),
    );
  });

  it('encodes what protobufjs decodes (ProcessingResponse)', () => {
    fc.assert(
      fc.property(response, (m) => {
        expect(canon(proc.responseDeserialize(encodeProcessingResponse(m)))).toEqual(canon(m));
      }),
    );
  });

  it('decodes what protobufjs encodes (ProcessingResponse)', () => {
    fc.assert(
      fc.property(response, (m) => {
        expect(canon(decodeProcessingResponse(proc.responseSerialize(m)))).toEqual(canon(m));
      }),
    );
  });

  it('round-trips a 1 MB body and multi-byte varint lengths', () => {
    const body = Buffer.alloc(1_000_000, 7);
    const m = { request_body: { body, end_of_stream: true } };
    const decoded = decodeProcessingRequest(proc.requestSerialize(m));
    expect(Buffer.from(decoded.request_body!.body!).equals(body)).toBe(true);
    expect(decoded.request).toBe('request_body');
    const reply = decodeProcessingResponse(encodeProcessingResponse({ request_body: { response: { body_mutation: { streamed_response: { body: body.subarray(0, 62_000), end_of_stream: true } } } } }));
    expect(reply.request_body?.response.body_mutation?.streamed_response.body.length).toBe(62_000);
  });

  it('skips unknown fields and rejects truncated input', () => {
    // field 15 (varint), field 9 (attributes, length-delimited) before a body message
    const extra = Buffer.concat([Buffer.from([0x78, 0x05, 0x4a, 0x02, 0x0a, 0x00]), proc.requestSerialize({ request_body: { body: Buffer.from('x'), end_of_stream: true } })]);
    expect(decodeProcessingRequest(extra).request_body?.body?.toString()).toBe('x');
    const whole = proc.requestSerialize({ request_body: { body: Buffer.from('hello'), end_of_stream: true } });
    expect(() => decodeProcessingRequest(whole.subarray(0, whole.length - 3))).toThrow(RangeError);
  });

  it('encodes and decodes the health messages', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 0, max: 3 }), (service, status) => {
        expect((check.requestDeserialize(encodeHealthCheckRequest({ service })) as { service?: string }).service ?? '').toBe(service);
        expect(decodeHealthCheckRequest(check.requestSerialize({ service })).service).toBe(service);
        expect((check.responseDeserialize(encodeHealthCheckResponse({ status })) as { status?: number }).status ?? 0).toBe(status);
        expect(decodeHealthCheckResponse(check.responseSerialize({ status })).status).toBe(status);
      }),
    );
  });
});

describe('ProtoWriter nesting around large byte fields', () => {
  it('encodes nested messages whose content mixes small fields and referenced large bodies', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 1, maxLength: 4 }), fc.array(fc.string({ maxLength: 30 }), { maxLength: 4 }), (sizes, keys) => {
        const m: ProcessingResponse = {
          request_headers: {
            response: {
              header_mutation: { set_headers: keys.map((k, i) => ({ header: { key: k, raw_value: Buffer.alloc(sizes[i % sizes.length] ?? 0, 65 + i) } })) },
              body_mutation: { streamed_response: { body: Buffer.alloc(sizes[0] ?? 0, 7), end_of_stream: true } },
              clear_route_cache: true,
            },
          },
          dynamic_metadata: { fields: { 'envoy.lb': { structValue: { fields: { k: { stringValue: 'x'.repeat(sizes[sizes.length - 1] ?? 0) } } } } } },
        };
        expect(canon(proc.responseDeserialize(encodeProcessingResponse(m)))).toEqual(canon(m));
      }),
    );
  });
});
