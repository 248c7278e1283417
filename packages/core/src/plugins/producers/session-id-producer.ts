import { z } from 'zod';
import { durationSchema } from '../../config/duration.js';
import { SESSION_ID_HEADER } from '../../headers/names.js';
import { definePlugin } from '../../registry/types.js';
import { Attributes } from '../../scheduling/attributes.js';
import type { DataProducer, RequestLifecycle } from '../../scheduling/plugins.js';

const nonEmpty = (v: string | undefined): boolean => v !== undefined && v.trim() !== '';

interface SessionEntry {
  readonly endpointId: string;
  readonly expiresAt: number;
}

/** The value of cookie `name` in a `cookie` header (`a=1; b=2`), if present and non-empty. */
function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      return value === '' ? undefined : value;
    }
  }
  return undefined;
}

/**
 * `session-id-producer`: the server-side session map of the `session_id` strategy. Maps the
 * client's session id to the endpoint that served its last request, for `ttl` (default 300s,
 * renewed on every request), and publishes it as the `session-endpoint` attribute. The id comes
 * from header `headerName` (default `x-session-id`, trimmed) or, with `cookieName`, from that
 * cookie (llm-d's parameters; set one of them). Auto-created when a session plugin uses the
 * `session_id` strategy.
 * @public
 * @category Built-in plugins
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
    /** Header carrying the session id (lowercased, trimmed; default `x-session-id`). */
    headerName: z.string().optional(),
    /** Cookie carrying the session id instead of a header. */
    cookieName: z.string().optional(),
  }).refine((p) => !(nonEmpty(p.headerName) && nonEmpty(p.cookieName)), { error: 'set headerName or cookieName, not both', path: ['cookieName'] }),
  create: (p, ctx): DataProducer & RequestLifecycle & { close(): void } => {
    const header = nonEmpty(p.headerName) ? (p.headerName as string).trim().toLowerCase() : SESSION_ID_HEADER;
    const cookie = nonEmpty(p.cookieName) ? (p.cookieName as string).trim() : undefined;
    const sessionIdOf = (headers: Readonly<Record<string, string | undefined>>): string | undefined => {
      if (cookie !== undefined) return cookieValue(headers['cookie'], cookie);
      const v = headers[header]?.trim();
      return v === '' ? undefined : v;
    };
    // Insertion order = expiry order, because an entry is deleted and re-inserted on renewal.
    const sessions = new Map<string, SessionEntry>();
    const bind = (id: string, endpointId: string): void => {
      sessions.delete(id);
      sessions.set(id, { endpointId, expiresAt: ctx.clock.now() + p.ttl });
    };
    // Bindings made by other replicas arrive here, so a session's next request is sticky whichever
    // replica receives it; the TTL restarts on arrival (each replica renews it on its own clock).
    const channel = `session/${ctx.name}`;
    const unsubscribe = ctx.sharedState?.subscribe(channel, (data) => {
      const d = data as { s?: unknown; e?: unknown } | null;
      if (typeof d?.s !== 'string' || typeof d.e !== 'string' || d.s === '' || d.e === '') throw new TypeError('bad session record');
      bind(d.s, d.e);
    });
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
        const id = sessionIdOf(request.request.headers);
        if (id === undefined) return;
        sweep(c.clock.now());
        const entry = sessions.get(id);
        if (entry !== undefined) request.attributes.set(Attributes.sessionEndpoint, entry.endpointId);
      },
      preRequest(c, request, result) {
        const id = sessionIdOf(request.request.headers);
        if (id === undefined) return;
        const target = result.profileResults.get(p.profileName ?? result.primaryProfileName)?.targets[0];
        if (target === undefined) return;
        bind(id, target.id);
        ctx.sharedState?.publish(channel, { s: id, e: target.id });
      },
      close() {
        unsubscribe?.();
      },
    };
  },
});
