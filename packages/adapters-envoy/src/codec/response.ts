import type { ProcessingResponse, WireCommonResponse, WireHeaderMutation, WireImmediateResponse } from '../wire/messages.js';
import { readHeaderMutation, writeHeaderMutation } from './headers.js';
import { ProtoReader } from './reader.js';
import { readStruct, writeStruct } from './struct.js';
import { ProtoWriter } from './writer.js';

/*
 * ProcessingResponse { oneof response { HeadersResponse request_headers = 1; response_headers = 2;
 *   BodyResponse request_body = 3; response_body = 4; TrailersResponse request_trailers = 5;
 *   response_trailers = 6; ImmediateResponse immediate_response = 7; } Struct dynamic_metadata = 8; }
 * HeadersResponse / BodyResponse { CommonResponse response = 1; }  TrailersResponse { HeaderMutation header_mutation = 1; }
 * CommonResponse { status = 1; HeaderMutation header_mutation = 2; BodyMutation body_mutation = 3; bool clear_route_cache = 5; }
 * BodyMutation { StreamedBodyResponse streamed_response = 3; }  StreamedBodyResponse { bytes body = 1; bool end_of_stream = 2; }
 * ImmediateResponse { HttpStatus status = 1 {code = 1}; HeaderMutation headers = 2; bytes body = 3; string details = 5; }
 */

function writeCommon(w: ProtoWriter, field: number, c: WireCommonResponse): void {
  w.open(field);
  w.open(1);
  if (c.header_mutation !== undefined) writeHeaderMutation(w, 2, c.header_mutation);
  const streamed = c.body_mutation?.streamed_response;
  if (streamed !== undefined) {
    w.open(3).open(3);
    if (streamed.body.length > 0) w.bytesField(1, streamed.body);
    w.boolField(2, streamed.end_of_stream);
    w.close().close();
  }
  w.boolField(5, c.clear_route_cache);
  w.close();
  w.close();
}

function writeTrailers(w: ProtoWriter, field: number, m: WireHeaderMutation | undefined): void {
  w.open(field);
  if (m !== undefined) writeHeaderMutation(w, 1, m);
  w.close();
}

function writeImmediate(w: ProtoWriter, i: WireImmediateResponse): void {
  w.open(7);
  w.open(1).uintField(1, i.status.code).close();
  if (i.headers !== undefined) writeHeaderMutation(w, 2, i.headers);
  if (i.body !== undefined && i.body.length > 0) w.bytesField(3, i.body);
  if (i.details !== undefined && i.details !== '') w.stringField(5, i.details);
  w.close();
}

/**
 * Encodes an `envoy.service.ext_proc.v3.ProcessingResponse`. Body chunks are referenced until the
 * final buffer is assembled, so each body byte is copied once.
 * @public
 * @category Codec
 */
export function encodeProcessingResponse(m: ProcessingResponse): Buffer {
  const w = new ProtoWriter();
  if (m.request_headers !== undefined) writeCommon(w, 1, m.request_headers.response);
  else if (m.response_headers !== undefined) writeCommon(w, 2, m.response_headers.response);
  else if (m.request_body !== undefined) writeCommon(w, 3, m.request_body.response);
  else if (m.response_body !== undefined) writeCommon(w, 4, m.response_body.response);
  else if (m.request_trailers !== undefined) writeTrailers(w, 5, m.request_trailers.header_mutation);
  else if (m.response_trailers !== undefined) writeTrailers(w, 6, m.response_trailers.header_mutation);
  else if (m.immediate_response !== undefined) writeImmediate(w, m.immediate_response);
  if (m.dynamic_metadata !== undefined) writeStruct(w, 8, m.dynamic_metadata);
  return w.finish();
}

function readCommon(r: ProtoReader, end: number): WireCommonResponse {
  const out: { -readonly [K in keyof WireCommonResponse]: WireCommonResponse[K] } = {};
  while (r.pos < end) {
    const tag = r.varint();
    if (tag === 18) out.header_mutation = readHeaderMutation(r, r.delimited());
    else if (tag === 40) out.clear_route_cache = r.varint() !== 0;
    else if (tag === 26) {
      const bmEnd = r.delimited();
      while (r.pos < bmEnd) {
        const t = r.varint();
        if (t !== 26) {
          r.skip(t & 7);
          continue;
        }
        const sEnd = r.delimited();
        let body: Uint8Array = Buffer.alloc(0);
        let eos = false;
        while (r.pos < sEnd) {
          const tt = r.varint();
          if (tt === 10) body = r.bytes();
          else if (tt === 16) eos = r.varint() !== 0;
          else r.skip(tt & 7);
        }
        out.body_mutation = { streamed_response: { body, end_of_stream: eos } };
      }
    } else r.skip(tag & 7);
  }
  return out;
}

/** Reads the single `CommonResponse response = 1` of a HeadersResponse / BodyResponse. */
function readWrapped(r: ProtoReader, end: number): { response: WireCommonResponse } {
  let response: WireCommonResponse = {};
  while (r.pos < end) {
    const tag = r.varint();
    if (tag === 10) response = readCommon(r, r.delimited());
    else r.skip(tag & 7);
  }
  return { response };
}

function readImmediate(r: ProtoReader, end: number): WireImmediateResponse {
  let code = 0;
  let headers: WireHeaderMutation | undefined;
  let body: Uint8Array | undefined;
  let details: string | undefined;
  while (r.pos < end) {
    const tag = r.varint();
    if (tag === 10) {
      const sEnd = r.delimited();
      while (r.pos < sEnd) {
        const t = r.varint();
        if (t === 8) code = r.varint();
        else r.skip(t & 7);
      }
    } else if (tag === 18) headers = readHeaderMutation(r, r.delimited());
    else if (tag === 26) body = r.bytes();
    else if (tag === 42) details = r.string();
    else r.skip(tag & 7);
  }
  return { status: { code }, ...(headers !== undefined ? { headers } : {}), ...(body !== undefined ? { body } : {}), ...(details !== undefined ? { details } : {}) };
}

/**
 * Decodes a ProcessingResponse (what Envoy receives); used by test clients and simulators.
 * @throws RangeError on malformed input
 * @public
 * @category Codec
 */
export function decodeProcessingResponse(bytes: Buffer): ProcessingResponse {
  const r = new ProtoReader(bytes);
  const out: { -readonly [K in keyof ProcessingResponse]: ProcessingResponse[K] } = {};
  while (r.pos < r.end) {
    const tag = r.varint();
    const field = Math.floor(tag / 8);
    if ((tag & 7) !== 2 || field < 1 || field > 8) {
      r.skip(tag & 7);
      continue;
    }
    const end = r.delimited();
    if (field === 1) out.request_headers = readWrapped(r, end);
    else if (field === 2) out.response_headers = readWrapped(r, end);
    else if (field === 3) out.request_body = readWrapped(r, end);
    else if (field === 4) out.response_body = readWrapped(r, end);
    else if (field === 5 || field === 6) {
      let header_mutation: WireHeaderMutation | undefined;
      while (r.pos < end) {
        const t = r.varint();
        if (t === 10) header_mutation = readHeaderMutation(r, r.delimited());
        else r.skip(t & 7);
      }
      const trailers = header_mutation === undefined ? {} : { header_mutation };
      if (field === 5) out.request_trailers = trailers;
      else out.response_trailers = trailers;
    } else if (field === 7) out.immediate_response = readImmediate(r, end);
    else out.dynamic_metadata = readStruct(r, end);
    r.pos = end;
  }
  return out;
}
