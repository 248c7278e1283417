import type { PolicySummary } from './types.js';

/**
 * Notes that explain figures a reader would otherwise misread: why the approximate (`default`)
 * and precise indexes tie with one gateway replica, and how far apart they are with several.
 * @internal
 */
export function explainTies(policies: readonly PolicySummary[], gateways: number): string[] {
  const approx = policies.find((p) => p.policy === 'default');
  const precise = policies.find((p) => p.policy === 'precise');
  if (approx === undefined || precise === undefined) return [];
  const gap = precise.measured.hitRate - approx.measured.hitRate;
  const pts = (v: number): string => `${(v * 100).toFixed(1)} points`;
  if (gateways <= 1) {
    return [
      `With one gateway replica the approximate index (default) records every routing decision the fleet receives, so it knows which pod was sent which prefix as well as the engines' own KV events do; precise can only add evictions, which matter when caches overflow. Here precise − default = ${pts(gap)}. Run with --gateways N (N > 1): each replica then sees about 1/N of the traffic, its routing history misses the rest, and only the KV events tell every replica what each pod really holds.`,
    ];
  }
  return [`With ${gateways} gateway replicas each approximate index sees about 1/${gateways} of the routing decisions, while the precise index receives every engine's KV events on every replica: precise − default = ${pts(gap)} of hit rate.`];
}
