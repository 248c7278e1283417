import type { EndpointPool } from '../endpoints/pool.js';
import type { Endpoint } from '../endpoints/types.js';
import { SwitchyardError } from '../errors/switchyard-error.js';

/** Host part of an `ip:port` hint entry (IPv6 in brackets), or the entry itself. */
function hostOf(entry: string): string {
  const s = entry.trim();
  if (s.startsWith('[')) {
    const end = s.indexOf(']');
    return end < 0 ? s : s.slice(1, end);
  }
  const colon = s.lastIndexOf(':');
  // A bare IPv6 address has several colons and no port.
  return colon < 0 || s.indexOf(':') !== colon ? s : s.slice(0, colon);
}

/**
 * The endpoints a request may go to: every pool member, restricted by the subset hint when one
 * is given. Hints match by IP only (the port is ignored), like llm-d.
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
  const ips = new Set(hint.map(hostOf));
  const out = all.filter((e) => ips.has(e.ip));
  if (out.length === 0) {
    throw new SwitchyardError('REJECTED_NO_ENDPOINTS', `no ready endpoint matches the subset hint (${hint.slice(0, 4).join(', ')}${hint.length > 4 ? ', …' : ''})`);
  }
  return out;
}
