/**
 * Why an attempt to reach an upstream endpoint failed.
 * - `connect`: the connection could not be opened (refused, unreachable, connect timeout).
 * - `reset`: the connection broke before the response completed (reset, closed by the peer).
 * - `headers-timeout`: the upstream accepted the request but sent no response head in time.
 * - `body-timeout`: the upstream stopped sending body bytes for too long.
 * - `aborted`: we aborted it (client went away, shutdown, eviction).
 * - `other`: anything else (protocol errors, invalid responses).
 * @public
 */
export type UpstreamFailureKind = 'connect' | 'reset' | 'headers-timeout' | 'body-timeout' | 'aborted' | 'other';

const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'ETIMEDOUT',
]);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNABORTED']);

/**
 * Classifies an error raised by undici for one upstream attempt.
 * @public
 */
export function classifyUpstreamError(error: unknown): UpstreamFailureKind {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code !== 'string') return 'other';
  if (CONNECT_CODES.has(code)) return 'connect';
  if (RESET_CODES.has(code)) return 'reset';
  if (code === 'UND_ERR_HEADERS_TIMEOUT') return 'headers-timeout';
  if (code === 'UND_ERR_BODY_TIMEOUT') return 'body-timeout';
  if (code === 'UND_ERR_ABORTED') return 'aborted';
  return 'other';
}

/**
 * Whether a failure may be retried on a fallback endpoint, provided nothing reached the client
 * yet: only when the request cannot have been processed in a way that matters (the connection
 * never opened) or the connection broke before a response head arrived.
 * @public
 */
export function isRetryable(kind: UpstreamFailureKind): boolean {
  return kind === 'connect' || kind === 'reset';
}

/**
 * Whether a failure counts against the endpoint's health (circuit breaker).
 * @public
 */
export function countsAsEndpointFailure(kind: UpstreamFailureKind): boolean {
  return kind === 'connect' || kind === 'reset' || kind === 'headers-timeout' || kind === 'body-timeout';
}
