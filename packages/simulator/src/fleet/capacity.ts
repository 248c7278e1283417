import { SwitchyardError } from '@switchyard/core';
import { percentiles } from '../report/stats.js';
import { ttftOrInfinity } from '../report/outcomes.js';
import { scaleArrivals } from '../workloads/scale.js';
import type { Workload } from '../workloads/types.js';
import { runVirtualFleet } from './virtual-fleet.js';
import type { PolicyFactory, VirtualFleetOptions } from './types.js';

/**
 * Options of {@link measureCapacity}.
 * @public
 * @category Fleet
 */
export interface CapacityProbeOptions {
  /** Fleet to probe (pods, profile, gateways, ...). */
  readonly fleet: VirtualFleetOptions;
  /** Policy that defines capacity (the caller passes round-robin: a plain load balancer). */
  readonly policy: PolicyFactory;
  /** TTFT SLO, ms: capacity is the highest rate whose TTFT p90 (failures as +∞) stays within it. */
  readonly sloTtftMs: number;
  /**
   * Virtual length of each probe, ms (default 60 000): a probe offers the workload's first
   * arrivals at the probed scale for this long and judges those arriving in its last two thirds,
   * so a short burst cannot pass for a sustainable rate.
   */
  readonly probeMs?: number;
  /** Bisection steps after bracketing (default 4: within ≈ 6%). */
  readonly steps?: number;
}

/**
 * Result of {@link measureCapacity}.
 * @public
 * @category Fleet
 */
export interface MeasuredCapacity {
  /** Highest passing arrival-scale factor (1 = the workload as generated). */
  readonly scale: number;
  /** The corresponding offered rate over the whole workload, requests/s. */
  readonly requestsPerSec: number;
  /** Probe runs made. */
  readonly probes: number;
}

const offeredRate = (w: Workload): number => {
  const last = w.items.reduce((a, it) => Math.max(a, it.arrivalMs), 0);
  return last === 0 ? w.items.length : (w.items.length * 1000) / last;
};

/**
 * Measures the fleet's capacity for a workload at a TTFT SLO: the workload's first `probeMs` of
 * arrivals, at different arrival scales (doubling or halving to bracket, then bisecting), run
 * through the policy; a scale passes when the TTFT p90 (failures as +∞) of the requests arriving
 * after the first third of the probe is within the SLO. Deterministic for a seed.
 * @throws SwitchyardError `CONFIG_INVALID` when even a 64× slower replay misses the SLO
 * @public
 * @category Fleet
 */
export async function measureCapacity(workload: Workload, o: CapacityProbeOptions): Promise<MeasuredCapacity> {
  const probeMs = o.probeMs ?? 60_000;
  let probes = 0;
  const passes = async (scale: number): Promise<boolean> => {
    probes++;
    const scaled = scaleArrivals(workload, scale);
    const items = scaled.items.filter((it) => it.arrivalMs < probeMs);
    const sample: Workload = { ...scaled, items: items.length > 0 ? items : scaled.items.slice(0, 1) };
    const run = await runVirtualFleet(sample, o.policy, o.fleet);
    const judged = run.records.filter((r) => r.arrivalMs >= probeMs / 3);
    const ttft = (judged.length > 0 ? judged : run.records).map(ttftOrInfinity);
    return percentiles(ttft).p90 <= o.sloTtftMs && run.records.length === sample.items.length;
  };
  let lo = 1;
  let hi = 1;
  if (await passes(1)) {
    for (hi = 2; hi <= 1024 && (await passes(hi)); hi *= 2) lo = hi;
  } else {
    for (lo = 0.5; !(await passes(lo)); lo /= 2) {
      if (lo < 1 / 64) throw new SwitchyardError('CONFIG_INVALID', `target-load: even a 64× slower replay misses the TTFT SLO of ${o.sloTtftMs} ms; raise --slo-ttft`);
    }
    hi = lo * 2;
  }
  for (let k = 0; k < (o.steps ?? 4); k++) {
    const mid = Math.sqrt(lo * hi);
    if (await passes(mid)) lo = mid;
    else hi = mid;
  }
  return { scale: lo, requestsPerSec: offeredRate(workload) * lo, probes };
}
