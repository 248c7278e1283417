/**
 * The placement step of `burst-prefix-cache-producer`, as a pure function of one sealed batch:
 * which replica each member goes to. Kept apart from the windowing so it can be tested (and
 * property-tested) without clocks.
 */

/** One request of a sealed batch. @internal */
export interface BurstMember {
  /** Chained block keys of the whole prompt (a key identifies its block and all before it). */
  readonly keys: readonly number[];
  /** Endpoint ids the request may go to. */
  readonly candidates: readonly string[];
}

/** Placement settings (llm-d's parameter names). @internal */
export interface BurstSettings {
  /** Members of one group on one replica at most; -1 = unlimited. */
  readonly maxPerReplica: number;
  /** > 0: also co-locate distinct prompts sharing their first N blocks. */
  readonly minColocateBlocks: number;
  /** What the fair share counts. */
  readonly balanceBy: 'requests' | 'tokens';
  /** Running requests per endpoint (the engine metric), the second tie-breaker. */
  readonly running: (endpointId: string) => number;
}

/** Length of the common prefix of two chained key sequences. */
function commonPrefix(a: readonly number[], b: readonly number[]): number {
  // Chained keys: once they differ they differ for good, so the first mismatch ends the prefix.
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/**
 * Assigns the members of a batch to replicas; returns the endpoint id per member index
 * (undefined: the member was not placed and gets no co-location preference).
 * Units are groups of ≥ 2 identical prompts, plus (with `minColocateBlocks`) singletons whose
 * first N blocks another member shares; longer prefixes are placed first. Each unit goes to the
 * replica already holding its longest in-batch prefix (≥ N, when co-locating) if that replica is
 * under its fair share, else to the least loaded replica (load, then running requests, then id);
 * at most `maxPerReplica` members go to one replica, the rest spill to the next pick.
 * @internal
 */
export function assignBurst(members: readonly BurstMember[], s: BurstSettings): (string | undefined)[] {
  const out: (string | undefined)[] = members.map(() => undefined);
  const groups = new Map<string, number[]>();
  members.forEach((m, i) => {
    if (m.keys.length === 0) return;
    const key = `${m.keys.length}:${m.keys[m.keys.length - 1]}`;
    const g = groups.get(key);
    if (g === undefined) groups.set(key, [i]);
    else g.push(i);
  });
  const n = s.minColocateBlocks;
  const headCount = new Map<number, number>();
  if (n > 0) for (const m of members) if (m.keys.length >= n) headCount.set(m.keys[n - 1] as number, (headCount.get(m.keys[n - 1] as number) ?? 0) + 1);
  const units = [...groups.values()].filter((g) => g.length >= 2 || (n > 0 && (members[g[0] as number] as BurstMember).keys.length >= n && (headCount.get((members[g[0] as number] as BurstMember).keys[n - 1] as number) ?? 0) >= 2));
  // Longest prefix first; Array.prototype.sort is stable, so equal lengths keep arrival order.
  units.sort((a, b) => (members[b[0] as number] as BurstMember).keys.length - (members[a[0] as number] as BurstMember).keys.length);

  const cost = (i: number): number => (s.balanceBy === 'tokens' ? (members[i] as BurstMember).keys.length : 1);
  const replicas = [...new Set(members.flatMap((m) => m.candidates))].sort();
  if (replicas.length === 0) return out;
  const total = units.reduce((sum, u) => sum + u.reduce((t, i) => t + cost(i), 0), 0);
  const share = Math.ceil(total / replicas.length);
  const load = new Map<string, number>(replicas.map((r) => [r, 0]));
  const placed = new Map<string, number[]>(replicas.map((r) => [r, []]));

  const leastLoaded = (allowed: readonly string[]): string | undefined => {
    let best: string | undefined;
    for (const r of allowed) {
      if (best === undefined) best = r;
      else {
        const d = (load.get(r) ?? 0) - (load.get(best) ?? 0) || s.running(r) - s.running(best);
        if (d < 0) best = r;
      }
    }
    return best;
  };
  const holder = (keys: readonly number[], allowed: readonly string[]): string | undefined => {
    let best: string | undefined;
    let bestLen = n - 1;
    for (const r of allowed) {
      if ((load.get(r) ?? 0) >= share) continue;
      for (const j of placed.get(r) ?? []) {
        const len = commonPrefix(keys, (members[j] as BurstMember).keys);
        if (len > bestLen) {
          best = r;
          bestLen = len;
        }
      }
    }
    return best;
  };

  for (const unit of units) {
    const first = members[unit[0] as number] as BurstMember;
    let pending = [...unit];
    const used = new Set<string>();
    while (pending.length > 0) {
      const allowed = first.candidates.filter((r) => !used.has(r));
      const target = (n > 0 && used.size === 0 ? holder(first.keys, allowed) : undefined) ?? leastLoaded(allowed.length > 0 ? allowed : first.candidates);
      if (target === undefined) break;
      used.add(target);
      const take = s.maxPerReplica < 0 ? pending.length : s.maxPerReplica;
      for (const i of pending.slice(0, take)) {
        out[i] = target;
        load.set(target, (load.get(target) ?? 0) + cost(i));
        placed.get(target)?.push(i);
      }
      pending = pending.slice(take);
    }
  }
  return out;
}
