import { type Endpoint, type EndpointPool } from '@switchyard/core';
import { parseAddress } from '@switchyard/core/internal';

function hintIps(hint: readonly string[]): Set<string> {
  const ips = new Set<string>();
  for (const entry of hint) {
    try {
      ips.add(parseAddress(entry).ip);
    } catch {
      ips.add(entry); // a bare IP (no port) allows every port of that host
    }
  }
  return ips;
}

/**
 * Chooses the endpoint for a request without a body (GET `/v1/models` and the like), which has
 * nothing to schedule on: the least-loaded endpoint by Switchyard's own in-flight count, ties
 * broken at random, restricted to the subset hint when one is given (matched by IP, like llm-d).
 * Returns undefined when no endpoint qualifies.
 * @public
 */
export function pickHeaderOnly(pool: EndpointPool | undefined, subsetHint: readonly string[] | undefined, random: () => number): Endpoint | undefined {
  if (pool === undefined) return undefined;
  const allowed = subsetHint === undefined ? undefined : hintIps(subsetHint);
  let best: Endpoint | undefined;
  let ties = 0;
  for (const e of pool.list()) {
    if (allowed !== undefined && !allowed.has(e.ip)) continue;
    if (best === undefined || e.inFlightRequests < best.inFlightRequests) {
      best = e;
      ties = 1;
    } else if (e.inFlightRequests === best.inFlightRequests) {
      // Reservoir sampling keeps every tied endpoint equally likely in one pass.
      ties++;
      if (random() * ties < 1) best = e;
    }
  }
  return best;
}
