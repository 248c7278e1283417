import { z } from 'zod';
import type { Endpoint } from '../../endpoints/types.js';
import { definePlugin } from '../../registry/types.js';
import type { Filter } from '../../scheduling/plugins.js';

/**
 * Type of llm-d's conformance-test filter. @public
 * @category Built-in plugins
 */
export const HEADER_BASED_TESTING_FILTER = 'header-based-testing-filter';

/**
 * Request header the filter reads: a comma list of `IP` or `IP:port` (IPv6 in brackets). @public
 * @category Built-in plugins
 */
export const TEST_ENDPOINT_SELECTION_HEADER = 'test-epp-endpoint-selection';

/** Host and optional port of one header entry, IPv6 brackets removed; undefined when blank. */
function entryOf(raw: string): { ip: string; port: number | undefined } | undefined {
  const s = raw.trim();
  if (s === '') return undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(s);
  if (bracketed !== null) return { ip: bracketed[1] ?? '', port: bracketed[2] === undefined ? undefined : Number(bracketed[2]) };
  const colon = s.lastIndexOf(':');
  // One colon is ip:port; more is a bare IPv6 address.
  if (colon > 0 && s.indexOf(':') === colon && /^\d{1,5}$/.test(s.slice(colon + 1))) return { ip: s.slice(0, colon), port: Number(s.slice(colon + 1)) };
  return { ip: s, port: undefined };
}

/**
 * The endpoints a `test-epp-endpoint-selection` value names, in header order and de-duplicated:
 * `ip:port` selects that endpoint, a bare IP every port of the address; a blank value selects none.
 * @public
 * @category Built-in plugins
 */
export function endpointsNamedBy(header: string | undefined, endpoints: readonly Endpoint[]): Endpoint[] {
  const out: Endpoint[] = [];
  if (header === undefined) return out;
  const taken = new Set<Endpoint>();
  for (const part of header.split(',')) {
    const entry = entryOf(part);
    if (entry === undefined) continue;
    for (const e of endpoints) {
      if (e.ip !== entry.ip || (entry.port !== undefined && e.port !== entry.port) || taken.has(e)) continue;
      taken.add(e);
      out.push(e);
    }
  }
  return out;
}

/**
 * `header-based-testing-filter` (llm-d, used by conformance tests): keeps exactly the endpoints
 * the request's `test-epp-endpoint-selection` header names ({@link endpointsNamedBy}); without
 * the header nothing passes. It lets a test choose the destination, so it belongs in test
 * configs only.
 * @public
 * @category Built-in plugins
 */
export const headerBasedTestingFilterPlugin = definePlugin({
  type: HEADER_BASED_TESTING_FILTER,
  description: 'Keeps the endpoints named by the test-epp-endpoint-selection header (conformance tests only).',
  parameters: z.strictObject({}).prefault({}),
  create: (_p, ctx): Filter => ({
    type: HEADER_BASED_TESTING_FILTER,
    name: ctx.name,
    filter: (_c, request, endpoints) => endpointsNamedBy(request.request.headers[TEST_ENDPOINT_SELECTION_HEADER], endpoints),
  }),
});
