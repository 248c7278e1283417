import { z } from 'zod';
import { definePlugin } from '../../registry/types.js';
import type { InferenceRequest } from '../../request/types.js';
import { attributeKey } from '../../scheduling/attributes.js';
import type { RequestHeaderProcessor } from './request-header-processor.js';

/**
 * Type of llm-d's agent-identity request-header processor. @public
 * @category Built-in plugins
 */
export const AGENT_IDENTITY = 'agent-identity';

/**
 * Session headers agent clients send, checked in this order after `additionalSessionHeaders`
 * (llm-d's built-in list).
 * @public
 * @category Built-in plugins
 */
export const AGENT_SESSION_HEADERS: readonly string[] = ['x-claude-code-session-id', 'x-session-affinity', 'session-id', 'session_id'];

/**
 * The producer-agnostic `agent-identity` attribute: the request's agent session id, published for
 * session-affinity plugins (`sessionIdConfig.sources: [{ attribute: agent-identity }]`).
 * @public
 * @category Built-in plugins
 */
export const agentIdentityAttribute = attributeKey<string>(AGENT_IDENTITY);

/**
 * Parameters of `agent-identity`: extra header names, lower-cased (not trimmed), checked first. @public
 * @category Built-in plugins
 */
export const agentIdentityParameters = z
  .strictObject({ additionalSessionHeaders: z.array(z.string()).default([]) })
  .prefault({});

/**
 * The first non-empty value among `headers` (lower-case names) in `request`'s headers.
 * @public
 * @category Built-in plugins
 */
export function firstSessionHeader(request: InferenceRequest, headers: readonly string[]): string | undefined {
  for (const name of headers) {
    const v = request.headers[name];
    if (v !== undefined && v !== '') return v;
  }
  return undefined;
}

/**
 * `agent-identity` (llm-d, alpha): reads the agent session id from `additionalSessionHeaders`,
 * then `x-claude-code-session-id`, `x-session-affinity`, `session-id`, `session_id` (first
 * non-empty wins). The picker uses it as the fairness id when the request names none, so each
 * agent session is its own flow, and publishes it as the `agent-identity` attribute.
 * @public
 * @category Built-in plugins
 */
export const agentIdentityPlugin = definePlugin({
  type: AGENT_IDENTITY,
  description: 'Agent session id from session headers; the fairness id when none is given.',
  parameters: agentIdentityParameters,
  create: (p, ctx): RequestHeaderProcessor => {
    const headers = [...p.additionalSessionHeaders.map((h) => h.toLowerCase()), ...AGENT_SESSION_HEADERS];
    return { type: AGENT_IDENTITY, name: ctx.name, identityOf: (request) => firstSessionHeader(request, headers) };
  },
});
