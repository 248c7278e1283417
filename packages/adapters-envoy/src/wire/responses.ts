import type { ProcessingResponse, WireHeaderMutation, WireStruct } from './messages.js';

/**
 * Largest body chunk sent back in FULL_DUPLEX_STREAMED mode. Envoy wants chunks under 64 KiB;
 * the Gateway API Inference Extension uses 62,000 bytes, and so do we.
 * @public
 */
export const STREAMED_BODY_CHUNK_BYTES = 62_000;

/** Direction of a reply: the request or the response of the proxied HTTP exchange. @public */
export type Direction = 'request' | 'response';

/**
 * What to put in a header reply.
 * @public
 */
export interface HeadersReply {
  /** Header edits (omitted when empty). */
  readonly mutation?: WireHeaderMutation;
  /** Ask Envoy to re-run route selection. */
  readonly clearRouteCache?: boolean;
  /** Dynamic metadata riding on the reply. */
  readonly dynamicMetadata?: WireStruct;
}

/**
 * A reply to request or response headers.
 * @public
 */
export function headersResponse(direction: Direction, reply: HeadersReply = {}): ProcessingResponse {
  const common = {
    ...(reply.mutation !== undefined ? { header_mutation: reply.mutation } : {}),
    ...(reply.clearRouteCache === true ? { clear_route_cache: true } : {}),
  };
  const meta = reply.dynamicMetadata !== undefined ? { dynamic_metadata: reply.dynamicMetadata } : {};
  return direction === 'request' ? { request_headers: { response: common }, ...meta } : { response_headers: { response: common }, ...meta };
}

/**
 * One streamed body chunk reply, the only body reply FULL_DUPLEX_STREAMED accepts.
 * @public
 */
export function bodyChunkResponse(direction: Direction, body: Uint8Array, endOfStream: boolean): ProcessingResponse {
  const response = { body_mutation: { streamed_response: { body, end_of_stream: endOfStream } } };
  return direction === 'request' ? { request_body: { response } } : { response_body: { response } };
}

/**
 * Splits `body` into streamed chunk replies of at most `chunkBytes`, `end_of_stream` on the last
 * only when `endOfStream`. An empty body with `endOfStream` is one empty chunk (Envoy needs the eos);
 * an empty body without it is no reply at all. Chunks are views of `body`, not copies.
 * @public
 */
export function bodyChunkResponses(
  direction: Direction,
  body: Uint8Array,
  endOfStream: boolean,
  chunkBytes: number = STREAMED_BODY_CHUNK_BYTES,
): ProcessingResponse[] {
  if (body.length === 0) return endOfStream ? [bodyChunkResponse(direction, body, true)] : [];
  const out: ProcessingResponse[] = [];
  for (let offset = 0; offset < body.length; offset += chunkBytes) {
    const end = Math.min(body.length, offset + chunkBytes);
    out.push(bodyChunkResponse(direction, body.subarray(offset, end), endOfStream && end === body.length));
  }
  return out;
}

/**
 * A reply to trailers (no edits).
 * @public
 */
export function trailersResponse(direction: Direction): ProcessingResponse {
  return direction === 'request' ? { request_trailers: {} } : { response_trailers: {} };
}
