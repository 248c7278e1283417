import { basename } from 'node:path';
import { buildReport } from '../report/build.js';
import type { ComparisonReport, PolicyRun } from '../report/types.js';
import { BUILTIN_POLICIES, builtinPolicy, configPolicy } from '../policies/builtin.js';
import { createWorkloadPreset } from '../workloads/presets.js';
import { runVirtualFleet } from './virtual-fleet.js';
import type { PolicyFactory } from './types.js';

/**
 * Options of {@link comparePolicies}.
 * @public
 */
export interface CompareOptions {
  /** Workload preset name or `trace:FILE`. */
  readonly workload: string;
  /** Policies: built-in names or config file paths. */
  readonly policies: readonly string[];
  /** Pods (default 8). */
  readonly pods?: number;
  /** Arrival rate (preset default ≈70% of capacity). */
  readonly rate?: number;
  /** Arrival window, ms (preset default). */
  readonly durationMs?: number;
  /** Seed (default 1). */
  readonly seed?: number;
  /** Engine profile (preset default). */
  readonly profile?: string;
  /** Agentic token scale. */
  readonly scale?: number;
  /** Trace speed-up. */
  readonly speedup?: number;
  /** Metrics scrape interval, ms (default 50). */
  readonly scrapeIntervalMs?: number;
  /** KV event delay, ms (default 10). */
  readonly kvEventDelayMs?: number;
  /** Reads a file (trace or config); the CLI passes `fs.readFileSync`. */
  readonly readFile?: (path: string) => string;
  /** Progress of the current policy. */
  readonly onProgress?: (info: { policy: string; index: number; count: number; done: number; total: number; virtualMs: number }) => void;
}

/**
 * Runs the same seeded workload under each policy in the virtual-time fleet and builds the
 * comparison report.
 * @throws SwitchyardError `CONFIG_INVALID` for unknown policies or workloads
 * @public
 */
export async function comparePolicies(o: CompareOptions): Promise<{ report: ComparisonReport; runs: PolicyRun[] }> {
  const pods = o.pods ?? 8;
  const seed = o.seed ?? 1;
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
    ...(traceText === undefined ? {} : { traceText }),
  });
  const factories: [string, PolicyFactory][] = o.policies.map((p) =>
    (BUILTIN_POLICIES as readonly string[]).includes(p) ? [p, builtinPolicy(p)] : [basename(p), configPolicy(basename(p), read(p))],
  );
  const scrapeIntervalMs = o.scrapeIntervalMs ?? 50;
  const kvEventDelayMs = o.kvEventDelayMs ?? 10;
  const runs: PolicyRun[] = [];
  for (const [index, [name, factory]] of factories.entries()) {
    runs.push(await runVirtualFleet(preset.workload, factory, {
      pods,
      seed,
      profile: preset.profile,
      overrides: preset.overrides,
      scrapeIntervalMs,
      kvEventDelayMs,
      onProgress: (done, total, virtualMs) => o.onProgress?.({ policy: name, index, count: factories.length, done, total, virtualMs }),
    }));
  }
  const w = preset.workload;
  const report = buildReport({
    workload: { name: w.name, description: w.description, params: { ...w.params, rate: preset.rate, estimatedCapacity: preset.capacity }, requests: w.items.length },
    fleet: { pods, profile: preset.profile, scrapeIntervalMs, kvEventDelayMs },
    seed,
    runs,
  });
  return { report, runs };
}
