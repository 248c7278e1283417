import { z } from 'zod';
import { SESSION_TOKEN_HEADER } from '../headers/names.js';
import { Attributes } from '../scheduling/attributes.js';
import type { SchedulingRequest } from '../scheduling/request.js';

/**
 * How session-affinity plugins find a request's session endpoint:
 * `encoded_endpoint_header` decodes the base64 endpoint id the client echoes in `x-session-token`;
 * `session_id` looks the client's `x-session-id` up in a server-side map (`session-id-producer`).
 * @public
 */
export const sessionStrategySchema = z.enum(['encoded_endpoint_header', 'session_id']);

/** A session strategy. @public */
export type SessionStrategy = z.infer<typeof sessionStrategySchema>;

/**
 * Encodes an endpoint id as a session token.
 * @public
 */
export function encodeSessionToken(endpointId: string): string {
  return Buffer.from(endpointId, 'utf8').toString('base64');
}

/**
 * Decodes a session token; undefined when absent or empty.
 * @public
 */
export function decodeSessionToken(token: string | undefined): string | undefined {
  if (token === undefined || token === '') return undefined;
  const id = Buffer.from(token, 'base64').toString('utf8');
  return id === '' ? undefined : id;
}

/**
 * The endpoint id the request's session is pinned to under `strategy`, if any.
 * @public
 */
export function sessionEndpointOf(request: SchedulingRequest, strategy: SessionStrategy): string | undefined {
  return strategy === 'session_id'
    ? request.attributes.get(Attributes.sessionEndpoint)
    : decodeSessionToken(request.request.headers[SESSION_TOKEN_HEADER]);
}

/**
 * Attribute names a session plugin reads under `strategy`.
 * @internal
 */
export function sessionConsumes(strategy: SessionStrategy): readonly string[] {
  return strategy === 'session_id' ? [Attributes.sessionEndpoint.name] : [];
}
