import { basename } from 'node:path';
import { computeBounds, type WorkloadBounds } from '../bounds/bounds.js';
import { getProfile } from '../engine/profiles.js';
import { buildReport } from '../report/build.js';
import type { ComparisonReport, PolicyRun } from '../report/types.js';
import { BUILTIN_POLICIES, builtinPolicy, configPolicy } from '../policies/builtin.js';
import { createWorkloadPreset } from '../workloads/presets.js';
import { scaleArrivals } from '../workloads/scale.js';
import type { Workload } from '../workloads/types.js';
import { measureCapacity, type MeasuredCapacity } from './capacity.js';
import { DEFAULT_GATEWAY_CPU, gatewayCpuMs, requestPathMs } from './gateway-cost.js';
import type { SignalTiming } from './signal-timing.js';
import { runVirtualFleet } from './virtual-fleet.js';
import type { MembershipChange, PolicyFactory, VirtualFleetOptions } from './types.js';

/**
 * Options of {@link comparePolicies}.
 * @public
 * @category Fleet
 */
export interface CompareOptions {
  /** Workload preset name or `trace:FILE` (Mooncake JSONL or Azure CSV). */
  readonly workload: string;
  /** Policies: built-in names or config file paths. */
  readonly policies: readonly string[];
  /** Pods (default 8). */
  readonly pods?: number;
  /** Gateway replicas, each with its own policy instance (default 1). */
  readonly gateways?: number;
  /** Replicas share state through an in-memory stand-in for Redis, syncing every this many ms. */
  readonly sharedStateSyncMs?: number;
  /** Arrival rate (preset default ≈70% of capacity). */
  readonly rate?: number;
  /**
   * Offered load as a fraction of the capacity measured at the TTFT SLO (round-robin, same fleet);
   * overrides `rate` and `speedup` by scaling the workload's arrivals.
   */
  readonly targetLoad?: number;
  /** TTFT SLO for goodput and for `targetLoad`, ms (default 2000). */
  readonly sloTtftMs?: number;
  /** Arrival window, ms (preset default). */
  readonly durationMs?: number;
  /** Seed (default 1). */
  readonly seed?: number;
  /** Seeds to run (seed, seed + 1, ...; default 1): the report gives means with 95% intervals. */
  readonly seeds?: number;
  /** Engine profile (preset default). */
  readonly profile?: string;
  /** Agentic token scale. */
  readonly scale?: number;
  /** Trace speed-up. */
  readonly speedup?: number;
  /** Zipf exponent of shared-prefix group popularity (default 0). */
  readonly zipf?: number;
  /** Metrics scrape interval, ms (default 50). */
  readonly scrapeIntervalMs?: number;
  /** Median KV event delay, ms (default 10). */
  readonly kvEventDelayMs?: number;
  /** Other signal timing (KV-event delay spread and loss, scrape jitter). */
  readonly signals?: Partial<SignalTiming>;
  /** Pod restarts and other membership changes. */
  readonly membership?: readonly MembershipChange[];
  /**
   * A capacity already measured for this workload and fleet (from an earlier result's `capacity`):
   * `targetLoad` scales by it instead of probing again, so a sweep over loads probes once.
   */
  readonly capacity?: MeasuredCapacity | undefined;
  /** Reads a file (trace or config); the CLI passes `fs.readFileSync`. */
  readonly readFile?: (path: string) => string;
  /** Progress of the current policy. */
  readonly onProgress?: (info: { policy: string; index: number; count: number; done: number; total: number; virtualMs: number }) => void;
}

function policyFactories(o: CompareOptions, read: (path: string) => string): [string, PolicyFactory][] {
  return o.policies.map((p) =>
    (BUILTIN_POLICIES as readonly string[]).includes(p) || p === 'oracle' ? [p, builtinPolicy(p)] : [basename(p), configPolicy(basename(p), read(p))],
  );
}

/**
 * Runs the same seeded workload under each policy in the virtual-time fleet, computes the
 * workload's sound references (hit bounds, TTFT lower bound) and builds the comparison report.
 * @throws SwitchyardError `CONFIG_INVALID` for unknown policies or workloads
 * @public
 * @category Fleet
 */
export async function comparePolicies(o: CompareOptions): Promise<{ report: ComparisonReport; runs: PolicyRun[]; bounds: WorkloadBounds; workload: Workload; capacity: MeasuredCapacity | undefined }> {
  const pods = o.pods ?? 8;
  const gateways = o.gateways ?? 1;
  const seed = o.seed ?? 1;
  const sloTtftMs = o.sloTtftMs ?? 2000;
  const read = o.readFile ?? ((path: string): string => { throw new Error(`cannot read ${path}: no readFile given`); });
  const traceText = o.workload.startsWith('trace:') ? read(o.workload.slice('trace:'.length)) : undefined;
  const preset = createWorkloadPreset(o.workload, {
    pods,
    seed,
    ...(o.rate === undefined ? {} : { rate: o.rate }),
    ...(o.durationMs === undefined ? {} : { durationMs: o.durationMs }),
    ...(o.profile === undefined ? {} : { profile: o.profile }),
    ...(o.scale === undefined ? {} : { scale: o.scale }),
    ...(o.speedup === undefined ? {} : { speedup: o.speedup }),
    ...(o.zipf === undefined ? {} : { zipf: o.zipf }),
    ...(traceText === undefined ? {} : { traceText }),
  });
  const factories = policyFactories(o, read);
  const scrapeIntervalMs = o.scrapeIntervalMs ?? 50;
  const kvEventDelayMs = o.kvEventDelayMs ?? 10;
  const fleet = (s: number): VirtualFleetOptions => ({
    ...(o.sharedStateSyncMs === undefined ? {} : { sharedStateSyncMs: o.sharedStateSyncMs }),
    pods, gateways, seed: s, profile: preset.profile, overrides: preset.overrides, scrapeIntervalMs, kvEventDelayMs,
    ...(o.signals === undefined ? {} : { signals: o.signals }),
    ...(o.membership === undefined ? {} : { membership: o.membership }),
  });
  let workload: Workload = preset.workload;
  let capacity = preset.capacity;
  let measured: MeasuredCapacity | undefined;
  if (o.targetLoad !== undefined) {
    measured = o.capacity ?? (await measureCapacity(workload, { fleet: fleet(seed), policy: builtinPolicy('round-robin'), sloTtftMs }));
    workload = scaleArrivals(workload, measured.scale * o.targetLoad);
    capacity = measured.requestsPerSec;
  }
  const profile = getProfile(preset.profile);
  const cpuBlocks = preset.overrides?.numCpuBlocks ?? 0;
  const bounds = computeBounds(workload, {
    pods,
    profile: { ...profile, numGpuBlocks: preset.overrides?.numGpuBlocks ?? profile.numGpuBlocks },
    cpuBlocksPerPod: cpuBlocks,
    fixedMs: (i) => {
      const p = workload.items[i]?.promptLength ?? 0;
      return gatewayCpuMs(DEFAULT_GATEWAY_CPU, p) + requestPathMs(profile, p);
    },
  });
  const runSeed = async (s: number): Promise<PolicyRun[]> => {
    const out: PolicyRun[] = [];
    for (const [index, [name, factory]] of factories.entries()) {
      out.push(await runVirtualFleet(workload, factory, {
        ...fleet(s),
        onProgress: (done, total, virtualMs) => o.onProgress?.({ policy: name, index, count: factories.length, done, total, virtualMs }),
      }));
    }
    return out;
  };
  const runs = await runSeed(seed);
  // Further seeds vary the engines' jitter, routing randomness and signal timing on the same
  // offered requests, so the bounds (a property of the requests) stay valid for every seed.
  const moreSeeds: { seed: number; runs: PolicyRun[] }[] = [];
  for (let k = 1; k < (o.seeds ?? 1); k++) moreSeeds.push({ seed: seed + k, runs: await runSeed(seed + k) });
  const w = workload;
  const report = buildReport({
    workload: { name: w.name, description: w.description, params: { ...w.params, rate: preset.rate, estimatedCapacity: capacity, targetLoad: o.targetLoad }, requests: w.items.length },
    fleet: { pods, profile: preset.profile, scrapeIntervalMs, kvEventDelayMs, gateways },
    seed,
    runs,
    items: w.items,
    bounds,
    sloTtftMs,
    moreSeeds,
  });
  return { report, runs, bounds, workload, capacity: measured };
}

