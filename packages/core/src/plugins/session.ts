import { z } from 'zod';
import { SESSION_TOKEN_HEADER } from '../headers/names.js';
import { Attributes } from '../scheduling/attributes.js';
import type { SchedulingRequest } from '../scheduling/request.js';

/**
 * How session-affinity plugins find a request's session endpoint:
 * `encoded_endpoint_header` decodes the base64 endpoint id the client echoes in `x-session-token`;
 * `session_id` looks the client's `x-session-id` up in a server-side map (`session-id-producer`).
 * @public
 * @category Built-in plugins
 */
export const sessionStrategySchema = z.enum(['encoded_endpoint_header', 'session_id']);

/**
 * A session strategy. @public
 * @category Built-in plugins
 */
export type SessionStrategy = z.infer<typeof sessionStrategySchema>;

/**
 * Encodes an endpoint id as a session token.
 * @public
 * @category Built-in plugins
 */
export function encodeSessionToken(endpointId: string): string {
  return Buffer.from(endpointId, 'utf8').toString('base64');
}

/**
 * Decodes a session token; undefined when absent or empty.
 * @public
 * @category Built-in plugins
 */
export function decodeSessionToken(token: string | undefined): string | undefined {
  if (token === undefined || token === '') return undefined;
  const id = Buffer.from(token, 'base64').toString('utf8');
  return id === '' ? undefined : id;
}

/**
 * llm-d's `encodedEndpointHeaderConfig`: the header carrying the session token (lowercased and
 * trimmed; default `x-session-token`).
 * @public
 */
export const encodedEndpointHeaderConfigSchema = z
  .strictObject({ header: z.string().default(SESSION_TOKEN_HEADER).transform((h) => (h.trim() === '' ? SESSION_TOKEN_HEADER : h.trim().toLowerCase())) })
  .default({ header: SESSION_TOKEN_HEADER });

/**
 * Session parameters llm-d accepts that Switchyard's session plugins load without acting on.
 * @internal
 */
export const SESSION_NOT_ACTED_ON: Readonly<Record<string, string>> = {
  sessionIdConfig:
    'the session_id strategy reads the session map of session-id-producer: choose the header or cookie there (headerName, cookieName) and the lifetime with its ttl',
};

/**
 * The endpoint id the request's session is pinned to under `strategy`, if any; `tokenHeader` is
 * the header of the `encoded_endpoint_header` strategy.
 * @public
 * @category Built-in plugins
 */
export function sessionEndpointOf(request: SchedulingRequest, strategy: SessionStrategy, tokenHeader: string = SESSION_TOKEN_HEADER): string | undefined {
  return strategy === 'session_id'
    ? request.attributes.get(Attributes.sessionEndpoint)
    : decodeSessionToken(request.request.headers[tokenHeader]);
}

/**
 * Attribute names a session plugin reads under `strategy`.
 * @internal
 */
export function sessionConsumes(strategy: SessionStrategy): readonly string[] {
  return strategy === 'session_id' ? [Attributes.sessionEndpoint.name] : [];
}
