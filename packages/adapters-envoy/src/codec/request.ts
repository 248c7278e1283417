import type { ProcessingRequest, ProcessingRequestKind, WireHttpBody, WireHttpHeaders, WireMetadata, WireStruct } from '../wire/messages.js';
import { readHeaderMap, writeHeaderMap } from './headers.js';
import { ProtoReader } from './reader.js';
import { readStringMap, readStruct, writeStruct } from './struct.js';
import { ProtoWriter } from './writer.js';

const KINDS: Readonly<Record<number, ProcessingRequestKind>> = {
  2: 'request_headers',
  3: 'response_headers',
  4: 'request_body',
  5: 'response_body',
  6: 'request_trailers',
  7: 'response_trailers',
};

function readHttpHeaders(r: ProtoReader, end: number): WireHttpHeaders {
  let headers: WireHttpHeaders['headers'];
  let eos = false;
  while (r.pos < end) {
    const tag = r.varint();
    if (tag === 10) headers = readHeaderMap(r, r.delimited());
    else if (tag === 24) eos = r.varint() !== 0;
    else r.skip(tag & 7);
  }
  return { headers, end_of_stream: eos };
}

function readHttpBody(r: ProtoReader, end: number): WireHttpBody {
  let body: Buffer | undefined;
  let eos = false;
  while (r.pos < end) {
    const tag = r.varint();
    if (tag === 10) body = r.bytes();
    else if (tag === 16) eos = r.varint() !== 0;
    else r.skip(tag & 7);
  }
  return { body, end_of_stream: eos };
}

function readMetadata(r: ProtoReader, end: number): WireMetadata {
  return { filter_metadata: readStringMap<WireStruct>(r, end, readStruct, () => ({})) };
}

/**
 * Decodes an `envoy.service.ext_proc.v3.ProcessingRequest` from its wire bytes. Body bytes are
 * views of `bytes`, not copies. Unknown fields are skipped.
 * @throws RangeError on malformed input
 * @public
 * @category Codec
 */
export function decodeProcessingRequest(bytes: Buffer): ProcessingRequest {
  const r = new ProtoReader(bytes);
  const out: { -readonly [K in keyof ProcessingRequest]: ProcessingRequest[K] } = {};
  while (r.pos < r.end) {
    const tag = r.varint();
    const field = Math.floor(tag / 8);
    if ((tag & 7) === 2 && field >= 2 && field <= 8) {
      const end = r.delimited();
      const kind = KINDS[field];
      if (field === 8) out.metadata_context = readMetadata(r, end);
      else if (kind === 'request_headers' || kind === 'response_headers') out[kind] = readHttpHeaders(r, end);
      else if (kind === 'request_body' || kind === 'response_body') out[kind] = readHttpBody(r, end);
      else if (kind !== undefined) {
        let trailers: WireHttpHeaders['headers'];
        while (r.pos < end) {
          const t = r.varint();
          if (t === 10) trailers = readHeaderMap(r, r.delimited());
          else r.skip(t & 7);
        }
        out[kind] = { trailers };
      }
      if (kind !== undefined) out.request = kind;
      r.pos = end;
    } else if (tag === 80) out.observability_mode = r.varint() !== 0;
    else r.skip(tag & 7);
  }
  return out;
}

/**
 * Encodes a ProcessingRequest (what Envoy sends); used by test clients and simulators.
 * @public
 * @category Codec
 */
export function encodeProcessingRequest(m: ProcessingRequest): Buffer {
  const w = new ProtoWriter();
  const headers = (field: number, h: WireHttpHeaders): void => {
    w.open(field);
    if (h.headers !== undefined) writeHeaderMap(w, 1, h.headers);
    w.boolField(3, h.end_of_stream);
    w.close();
  };
  const body = (field: number, b: WireHttpBody): void => {
    w.open(field);
    if (b.body !== undefined && b.body.length > 0) w.bytesField(1, b.body);
    w.boolField(2, b.end_of_stream);
    w.close();
  };
  if (m.request_headers !== undefined) headers(2, m.request_headers);
  else if (m.response_headers !== undefined) headers(3, m.response_headers);
  else if (m.request_body !== undefined) body(4, m.request_body);
  else if (m.response_body !== undefined) body(5, m.response_body);
  else {
    const t = m.request_trailers ?? m.response_trailers;
    if (t !== undefined) {
      w.open(m.request_trailers !== undefined ? 6 : 7);
      if (t.trailers !== undefined) writeHeaderMap(w, 1, t.trailers);
      w.close();
    }
  }
  const fm = m.metadata_context?.filter_metadata;
  if (fm !== undefined) {
    w.open(8);
    for (const [key, struct] of Object.entries(fm)) {
      w.open(1);
      w.stringField(1, key);
      writeStruct(w, 2, struct);
      w.close();
    }
    w.close();
  }
  w.boolField(10, m.observability_mode);
  return w.finish();
}
