import { DESTINATION_SERVED_HEADER, HeaderRecord, REQUEST_ID_HEADER, isControlHeader } from '@switchyard/core';

/** Hop-by-hop headers (RFC 9110 §7.6.1) plus those the proxy recomputes itself. */
const REQUEST_DROP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'host',
  'content-length',
  'expect',
  'accept-encoding',
]);

const RESPONSE_DROP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'trailer', 'upgrade', DESTINATION_SERVED_HEADER]);

/**
 * Inputs of {@link buildUpstreamHeaders}.
 * @public
 */
export interface UpstreamHeaderInput {
  /** Client request headers, lower-case names. */
  readonly client: Readonly<Record<string, string>>;
  /** Headers the decision asks to set (destination, prefiller, session token...). */
  readonly decision: Readonly<Record<string, string>>;
  /** Request id to propagate. */
  readonly requestId: string;
  /** Length of the body that will be sent. */
  readonly contentLength: number;
  /** Client address, appended to `x-forwarded-for` (omitted when unknown). */
  readonly clientIp: string | undefined;
}

/**
 * Headers for the forwarded request: the client's headers without hop-by-hop headers and without
 * ANY control header (`isControlHeader`: every `x-llm-d-*` and `x-gateway-*` name plus the
 * headers model-server sidecars route by, such as `x-prefiller-url`: client copies never reach a
 * model server, trusted or not), then the decision's headers. `accept-encoding` is pinned to
 * `identity` so usage can be read from the response.
 * @public
 */
export function buildUpstreamHeaders(input: UpstreamHeaderInput): Record<string, string> {
  const out: Record<string, string> = new HeaderRecord();
  const client = input.client;
  const listed = client.connection;
  // Headers named in `Connection` are hop-by-hop too.
  const extraDrop = listed === undefined ? undefined : new Set(listed.toLowerCase().split(',').map((s) => s.trim()));
  for (const name in client) {
    if (REQUEST_DROP.has(name) || isControlHeader(name) || extraDrop?.has(name) === true) continue;
    out[name] = client[name] as string;
  }
  for (const name in input.decision) out[name] = input.decision[name] as string;
  out[REQUEST_ID_HEADER] = input.requestId;
  out['content-length'] = String(input.contentLength);
  out['accept-encoding'] = 'identity';
  if (input.clientIp !== undefined) {
    const prior = client['x-forwarded-for'];
    out['x-forwarded-for'] = prior === undefined ? input.clientIp : `${prior}, ${input.clientIp}`;
  }
  return out;
}

/**
 * Response head for the client built from undici's raw header list.
 * @public
 */
export interface ClientResponseHead {
  /** Flat `[name, value, name, value...]` list for `ServerResponse.writeHead`. */
  readonly headers: string[];
  /** Upstream content type (lower-cased), if any. */
  readonly contentType: string | undefined;
  /** Upstream `content-length`, if it sent a valid one (even when the head drops it). */
  readonly contentLength: number | undefined;
}

/**
 * Converts upstream raw headers to the client's response headers: drops hop-by-hop headers (and
 * `content-length` when the body will be rewritten), then adds
 * `x-gateway-destination-endpoint-served`, the request id and the decision's response headers.
 * @public
 */
export function buildClientResponseHead(
  raw: readonly Buffer[] | readonly string[],
  served: string,
  requestId: string,
  bodyRewritten: boolean,
  extra: Readonly<Record<string, string>> = {},
): ClientResponseHead {
  const headers: string[] = [];
  let contentType: string | undefined;
  let contentLength: number | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = text(raw[i]).toLowerCase();
    if (RESPONSE_DROP.has(name)) continue;
    if (name === 'content-length') {
      const n = Number(text(raw[i + 1]));
      if (Number.isSafeInteger(n) && n >= 0) contentLength = n;
      if (bodyRewritten) continue;
    }
    const value = text(raw[i + 1]);
    if (name === 'content-type') contentType = value.toLowerCase();
    if (name === REQUEST_ID_HEADER) continue;
    headers.push(name, value);
  }
  headers.push(DESTINATION_SERVED_HEADER, served, REQUEST_ID_HEADER, requestId);
  for (const name in extra) headers.push(name, extra[name] as string);
  return new ResponseHead(headers, contentType, contentLength);
}

/**
 * Lives as long as the exchange and references per-request strings: a class instance, not a
 * literal, so that V8 cannot pretenure its allocation site (see attempt-results.ts).
 */
class ResponseHead implements ClientResponseHead {
  constructor(
    readonly headers: string[],
    readonly contentType: string | undefined,
    readonly contentLength: number | undefined,
  ) {}
}

/** Header names and values are latin1 on the wire (RFC 9110 §5.5); decoding them so is also the cheapest. */
const text = (v: Buffer | string | undefined): string => (v === undefined ? '' : typeof v === 'string' ? v : v.toString('latin1'));

/**
 * Reads one header from a raw list without building a record.
 * @public
 */
export function rawHeader(raw: readonly Buffer[] | readonly string[], wanted: string): string | undefined {
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (text(raw[i]).toLowerCase() === wanted) return text(raw[i + 1]);
  }
  return undefined;
}
