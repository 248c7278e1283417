import type { EndpointPool } from '../endpoints/pool.js';
import type { Endpoint } from '../endpoints/types.js';
import { SwitchyardError } from '../errors/switchyard-error.js';

/** Host and optional port of a hint entry: `ip:port`, `[v6]:port`, bare `ip`, `[v6]` or bare v6. */
function parseEntry(entry: string): { host: string; port: number | undefined } {
  const s = entry.trim();
  if (s.startsWith('[')) {
    const end = s.indexOf(']');
    if (end < 0) return { host: s, port: undefined };
    const rest = s.slice(end + 1);
    return { host: s.slice(1, end), port: rest.startsWith(':') ? Number(rest.slice(1)) : undefined };
  }
  const colon = s.lastIndexOf(':');
  // A bare IPv6 address has several colons and no port.
  if (colon < 0 || s.indexOf(':') !== colon) return { host: s, port: undefined };
  return { host: s.slice(0, colon), port: Number(s.slice(colon + 1)) };
}

/**
 * The endpoints a request may go to: every pool member, restricted by the subset hint when one
 * is given. An `ip:port` entry matches that endpoint exactly; a bare `ip` allows every port of
 * that host (several ranks of one pod), as GAIE's EPP matches subset hints.
 * @throws SwitchyardError `REJECTED_NO_ENDPOINTS` (503) when the pool is empty, the hint is
 * empty, or no member matches the hint
 * @internal
 */
export function selectCandidates(pool: EndpointPool, hint: readonly string[] | undefined): readonly Endpoint[] {
  const all = pool.list();
  if (hint === undefined) {
    if (all.length === 0) throw new SwitchyardError('REJECTED_NO_ENDPOINTS', 'the pool has no ready endpoint');
    return all;
  }
  if (hint.length === 0) throw new SwitchyardError('REJECTED_NO_ENDPOINTS', 'the subset hint lists no endpoint');
  const anyPort = new Set<string>();
  const exact = new Set<string>();
  for (const entry of hint) {
    const { host, port } = parseEntry(entry);
    if (port === undefined) anyPort.add(host);
    else exact.add(`${host}|${port}`);
  }
  const out = all.filter((e) => anyPort.has(e.ip) || exact.has(`${e.ip}|${e.port}`));
  if (out.length === 0) {
    throw new SwitchyardError('REJECTED_NO_ENDPOINTS', `no ready endpoint matches the subset hint (${hint.slice(0, 4).join(', ')}${hint.length > 4 ? ', …' : ''})`);
  }
  return out;
}
