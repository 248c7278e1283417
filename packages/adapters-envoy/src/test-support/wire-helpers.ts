/*
 * Test-only helpers to build Envoy-side messages and read replies. Not exported from the package.
 */
import type { ProcessingRequest, ProcessingResponse, WireHeaderMutation, WireStruct } from '../wire/messages.js';

/** An Envoy header map with values in raw_value, as Envoy sends them. */
export function headerMap(headers: Readonly<Record<string, string>>): { headers: { key: string; raw_value: Buffer }[] } {
  return { headers: Object.entries(headers).map(([key, v]) => ({ key, raw_value: Buffer.from(v) })) };
}

/** Request headers message. */
export function reqHeaders(headers: Readonly<Record<string, string>>, endOfStream = false, metadata?: Record<string, WireStruct>): ProcessingRequest {
  return { request_headers: { headers: headerMap(headers), end_of_stream: endOfStream }, ...(metadata ? { metadata_context: { filter_metadata: metadata } } : {}) };
}

/** Request body chunk message. */
export function reqBody(body: string | Buffer, endOfStream: boolean): ProcessingRequest {
  return { request_body: { body: typeof body === 'string' ? Buffer.from(body) : body, end_of_stream: endOfStream } };
}

/** Response headers message. */
export function respHeaders(headers: Readonly<Record<string, string>>, endOfStream = false, metadata?: Record<string, WireStruct>): ProcessingRequest {
  return { response_headers: { headers: headerMap(headers), end_of_stream: endOfStream }, ...(metadata ? { metadata_context: { filter_metadata: metadata } } : {}) };
}

/** Response body chunk message. */
export function respBody(body: string | Buffer, endOfStream: boolean): ProcessingRequest {
  return { response_body: { body: typeof body === 'string' ? Buffer.from(body) : body, end_of_stream: endOfStream } };
}

/** Set headers of a mutation as a record. */
export function setHeaders(m: WireHeaderMutation | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of m?.set_headers ?? []) out[h.header.key] = Buffer.from(h.header.raw_value).toString('utf8');
  return out;
}

/** Which oneof member a reply carries. */
export function kindOf(r: ProcessingResponse): string {
  const keys = ['request_headers', 'response_headers', 'request_body', 'response_body', 'request_trailers', 'response_trailers', 'immediate_response'] as const;
  const found = keys.filter((k) => r[k] !== undefined);
  if (found.length !== 1) throw new Error(`reply sets ${found.length} oneof members`);
  return found[0] as string;
}

/** Streamed body chunk of a body reply. */
export function chunkOf(r: ProcessingResponse): { body: string; eos: boolean } {
  const s = (r.request_body ?? r.response_body)?.response.body_mutation?.streamed_response;
  if (s === undefined) throw new Error('not a streamed body reply');
  // proto3 leaves empty bytes and false out of the wire; decoders then report them as absent.
  const body = s.body as Uint8Array | undefined;
  return { body: Buffer.from(body ?? []).toString('utf8'), eos: (s.end_of_stream as boolean | undefined) === true };
}

/** Compact description of a reply sequence: `request_headers`, `request_body(42,eos)`... */
export function describeReplies(replies: readonly ProcessingResponse[]): string[] {
  return replies.map((r) => {
    const k = kindOf(r);
    if (k === 'request_body' || k === 'response_body') {
      const c = chunkOf(r);
      return `${k}(${Buffer.byteLength(c.body)}${c.eos ? ',eos' : ''})`;
    }
    if (k === 'immediate_response') return `immediate_response(${r.immediate_response?.status.code ?? 0})`;
    return k;
  });
}

/** Subset hint metadata. */
export function subsetHint(list: readonly string[] | string): Record<string, WireStruct> {
  const value = typeof list === 'string' ? { stringValue: list } : { listValue: { values: list.map((s) => ({ stringValue: s })) } };
  return { 'envoy.lb.subset_hint': { fields: { 'x-gateway-destination-endpoint-subset': value } } };
}

/** Served endpoint metadata. */
export function served(address: string): Record<string, WireStruct> {
  return { 'envoy.lb': { fields: { 'x-gateway-destination-endpoint-served': { stringValue: address } } } };
}
