import { SwitchyardError } from '@switchyard/core';
import { createRng, mix32 } from '../util/prng.js';
import { thinnedArrivals } from './arrivals.js';
import type { Workload, WorkloadItem } from './types.js';

/**
 * On/off bursts of one tenant: during the first `onMs` of every `periodMs` its rate is
 * multiplied by `factor`.
 * @public
 * @category Workloads
 */
export interface BurstSpec {
  /** Cycle length, ms. */
  readonly periodMs: number;
  /** Burst length at the start of each cycle, ms. */
  readonly onMs: number;
  /** Rate multiplier during a burst. */
  readonly factor: number;
}

/**
 * One tenant of a {@link multiTenantWorkload}.
 * @public
 * @category Workloads
 */
export interface TenantSpec {
  /** Tenant (fairness) id. */
  readonly name: string;
  /** Base request rate, requests/s. */
  readonly rate: number;
  /** Priority its requests carry (higher first; negative = sheddable). */
  readonly priority?: number;
  /** Tokens of the tenant's shared system prompt (default 1024). */
  readonly systemPromptLen?: number;
  /** Tokens unique to each request (default 256). */
  readonly questionLen?: number;
  /** Output tokens (default 128). */
  readonly outputLen?: number;
  /** Bursty arrivals. */
  readonly burst?: BurstSpec;
}

/**
 * Parameters of {@link multiTenantWorkload}.
 * @public
 * @category Workloads
 */
export interface MultiTenantOptions {
  /** Tenants (default: `interactive` priority 1 at 3 req/s, `standard` 0 at 3 req/s, `batch` -1 at 2 req/s bursting ×4 for 10 s of every 30 s). */
  readonly tenants?: readonly TenantSpec[];
  /** Multiplies every tenant's rate (default 1). */
  readonly rateScale?: number;
  /** Length of the run, ms (default 60 000). */
  readonly durationMs?: number;
  /** Seed (default 1). */
  readonly seed?: number;
}

/**
 * The default tenant mix. @public
 * @category Workloads
 */
export const DEFAULT_TENANTS: readonly TenantSpec[] = [
  { name: 'interactive', rate: 3, priority: 1, systemPromptLen: 1024, questionLen: 128, outputLen: 128 },
  { name: 'standard', rate: 3, priority: 0, systemPromptLen: 2048, questionLen: 256, outputLen: 256 },
  { name: 'batch', rate: 2, priority: -1, systemPromptLen: 512, questionLen: 1024, outputLen: 256, burst: { periodMs: 30_000, onMs: 10_000, factor: 4 } },
];

/**
 * A multi-tenant mix: each tenant has its own system prompt, rate, priority and optional bursts
 * (a non-homogeneous Poisson process), for fairness and priority experiments.
 * @public
 * @category Workloads
 */
export function multiTenantWorkload(options: MultiTenantOptions = {}): Workload {
  const tenants = options.tenants ?? DEFAULT_TENANTS;
  const scale = options.rateScale ?? 1;
  const durationMs = options.durationMs ?? 60_000;
  const seed = options.seed ?? 1;
  const rng = createRng(seed);
  const items: WorkloadItem[] = [];
  tenants.forEach((t, ti) => {
    if (!(t.rate > 0)) throw new SwitchyardError('CONFIG_INVALID', `workload.tenants[${ti}].rate: expected a positive number, got ${String(t.rate)}`);
    const r = rng.fork(`tenant-${t.name}`);
    const base = t.rate * scale;
    const burst = t.burst;
    const peak = burst === undefined ? base : base * Math.max(1, burst.factor);
    const rateAt = (ms: number): number => (burst !== undefined && ms % burst.periodMs < burst.onMs ? base * burst.factor : base);
    const sys = t.systemPromptLen ?? 1024;
    const q = t.questionLen ?? 256;
    thinnedArrivals(r, peak, durationMs, rateAt).forEach((arrivalMs, i) => {
      items.push({
        id: `mt-${t.name}-${i}`,
        arrivalMs,
        prompt: [{ seed: mix32(seed * 8191 + ti + 1), length: sys }, { seed: mix32(seed * 131 + ti * 1_000_003 + i), length: q }],
        promptLength: sys + q,
        maxOutputTokens: t.outputLen ?? 128,
        outputSeed: mix32(seed * 17 + ti * 65_537 + i),
        tenant: t.name,
        priority: t.priority ?? 0,
        adapter: undefined,
        session: undefined,
        after: undefined,
        delayMs: 0,
      });
    });
  });
  items.sort((a, b) => a.arrivalMs - b.arrivalMs || (a.id < b.id ? -1 : 1));
  return {
    name: 'multi-tenant',
    description: `${tenants.length} tenants (${tenants.map((t) => `${t.name} p${t.priority ?? 0} ${t.rate * scale}/s${t.burst === undefined ? '' : ' bursty'}`).join(', ')})`,
    params: { tenants, rateScale: scale, durationMs, seed },
    items,
  };
}
