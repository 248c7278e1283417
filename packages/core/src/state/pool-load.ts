import type { EndpointPool } from '../endpoints/pool.js';
import type { PeerSnapshot, ReplicaLoad } from './types.js';

/**
 * A pool whose in-flight load is shared, under the scope (pool name) every replica agrees on.
 * @internal
 */
export interface AttachedPool {
  readonly pool: EndpointPool;
  readonly scope: string;
}

/**
 * This replica's own in-flight load per scope and endpoint; idle endpoints are left out.
 * @internal
 */
export function snapshotLoad(pools: readonly AttachedPool[]): ReplicaLoad {
  const out: Record<string, Record<string, readonly [number, number]>> = {};
  for (const { pool, scope } of pools) {
    const byEndpoint: Record<string, readonly [number, number]> = {};
    for (const e of pool.list()) {
      const local = pool.localInFlight(e.id);
      if (local !== undefined && (local.requests > 0 || local.tokens > 0)) byEndpoint[e.id] = [local.requests, local.tokens];
    }
    out[scope] = byEndpoint;
  }
  return out;
}

/**
 * Sets every attached endpoint's peer share to the sum over `peers` (0 where none reports it).
 * Values that are not finite non-negative numbers are ignored: the store is input.
 * @internal
 */
export function applyPeerLoad(pools: readonly AttachedPool[], peers: readonly PeerSnapshot[]): void {
  for (const { pool, scope } of pools) {
    const sums = new Map<string, [number, number]>();
    for (const peer of peers) {
      const byEndpoint = peer.load[scope];
      if (byEndpoint === undefined) continue;
      for (const id of Object.keys(byEndpoint)) {
        const v = byEndpoint[id];
        if (v === undefined || !validCount(v[0]) || !validCount(v[1])) continue;
        const s = sums.get(id);
        if (s === undefined) sums.set(id, [v[0], v[1]]);
        else {
          s[0] += v[0];
          s[1] += v[1];
        }
      }
    }
    for (const e of pool.list()) {
      const s = sums.get(e.id);
      pool.setPeerInFlight(e.id, s === undefined ? 0 : s[0], s === undefined ? 0 : s[1]);
    }
  }
}

function validCount(n: unknown): n is number {
  return typeof n === 'number' && Number.isFinite(n) && n >= 0;
}
