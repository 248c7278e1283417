import { z } from 'zod';
import { durationSchema } from '../../config/duration.js';
import { SESSION_ID_HEADER } from '../../headers/names.js';
import { definePlugin } from '../../registry/types.js';
import { Attributes } from '../../scheduling/attributes.js';
import type { DataProducer, RequestLifecycle } from '../../scheduling/plugins.js';

interface SessionEntry {
  readonly endpointId: string;
  readonly expiresAt: number;
}

/**
 * `session-id-producer`: the server-side session map of the `session_id` strategy. Maps the
 * client's `x-session-id` to the endpoint that served its last request, for `ttl` (default 300s,
 * renewed on every request), and publishes it as the `session-endpoint` attribute. Auto-created
 * when a session plugin uses the `session_id` strategy.
 * @public
 */
export const sessionIdProducerPlugin = definePlugin({
  type: 'session-id-producer',
  description: 'Server-side x-session-id → endpoint map with a TTL.',
  produces: [Attributes.sessionEndpoint.name],
  defaultProducerFor: [Attributes.sessionEndpoint.name],
  parameters: z.strictObject({
    /** How long a session stays pinned after its last request (`300s`, or seconds). */
    ttl: durationSchema.default(300_000),
    /** Profile whose pick becomes the session endpoint (default: the primary profile). */
    profileName: z.string().min(1).optional(),
  }),
  create: (p, ctx): DataProducer & RequestLifecycle => {
    // Insertion order = expiry order, because an entry is deleted and re-inserted on renewal.
    const sessions = new Map<string, SessionEntry>();
    const sweep = (now: number): void => {
      for (const [id, entry] of sessions) {
        if (entry.expiresAt > now) break;
        sessions.delete(id);
      }
    };
    return {
      type: 'session-id-producer',
      name: ctx.name,
      produces: [Attributes.sessionEndpoint.name],
      consumes: [],
      produce(c, request) {
        const id = request.request.headers[SESSION_ID_HEADER];
        if (id === undefined || id === '') return;
        sweep(c.clock.now());
        const entry = sessions.get(id);
        if (entry !== undefined) request.attributes.set(Attributes.sessionEndpoint, entry.endpointId);
      },
      preRequest(c, request, result) {
        const id = request.request.headers[SESSION_ID_HEADER];
        if (id === undefined || id === '') return;
        const target = result.profileResults.get(p.profileName ?? result.primaryProfileName)?.targets[0];
        if (target === undefined) return;
        sessions.delete(id);
        sessions.set(id, { endpointId: target.id, expiresAt: c.clock.now() + p.ttl });
      },
    };
  },
});
