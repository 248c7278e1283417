import type { OutcomeCounts } from './outcomes.js';
import type { SeedInterval } from './seeds.js';

/**
 * What happened to one request in a simulated run. Times are ms from the start of the run.
 * @public
 * @category Report
 */
export interface RequestRecord {
  /** Workload item id. */
  readonly id: string;
  /** Tenant. */
  readonly tenant: string;
  /** Priority. */
  readonly priority: number;
  /** Gateway replica that routed it (0 with one gateway; undefined in live runs). */
  readonly gateway?: number | undefined;
  /** Endpoint that served it (undefined when rejected before dispatch). */
  readonly endpoint: string | undefined;
  /** Arrival at the gateway. */
  readonly arrivalMs: number;
  /** Dispatch to the endpoint (after admission queueing and scheduling). */
  readonly dispatchMs: number | undefined;
  /** First output token. */
  readonly firstTokenMs: number | undefined;
  /** End (completion or rejection). */
  readonly finishMs: number;
  /** Prompt tokens. */
  readonly promptTokens: number;
  /** Prompt tokens the engine served from its prefix cache. */
  readonly cachedTokens: number;
  /** Output tokens generated. */
  readonly outputTokens: number;
  /** `ok`, or how it failed. */
  readonly status: 'ok' | 'rejected' | 'error';
  /** Error code or reason when not ok. */
  readonly reason?: string | undefined;
}

/**
 * One observation of an endpoint's load.
 * @public
 * @category Report
 */
export interface LoadSample {
  /** Time, ms. */
  readonly t: number;
  /** Endpoint id. */
  readonly endpoint: string;
  /** Running requests. */
  readonly running: number;
  /** Waiting requests. */
  readonly waiting: number;
  /** KV-cache usage fraction. */
  readonly kvUsage: number;
}

/**
 * The raw result of running one policy.
 * @public
 * @category Report
 */
export interface PolicyRun {
  /** Policy name (`round-robin`, `default`, ... or a config path). */
  readonly policy: string;
  /** What the policy is. */
  readonly description: string;
  /** Every request. */
  readonly records: readonly RequestRecord[];
  /** Load samples of every endpoint. */
  readonly samples: readonly LoadSample[];
  /** Virtual duration of the run, ms (last event). */
  readonly durationMs: number;
  /** Real time the run took, ms (not part of the deterministic output). */
  readonly wallMs?: number;
  /** Engine prefix-cache counters summed over endpoints (tokens), as their metrics report them. */
  readonly engine: { readonly prefixQueries: number; readonly prefixHits: number; readonly preemptions: number };
}

/**
 * Percentiles of a distribution (ms unless noted).
 * @public
 * @category Report
 */
export interface Percentiles {
  /** Samples. */
  readonly count: number;
  /** Mean. */
  readonly mean: number;
  /** Median. */
  readonly p50: number;
  /** 90th percentile. */
  readonly p90: number;
  /** 99th percentile. */
  readonly p99: number;
  /** Maximum. */
  readonly max: number;
}

/**
 * Per-tenant outcome of one policy.
 * @public
 * @category Report
 */
export interface TenantSummary {
  /** Tenant. */
  readonly tenant: string;
  /** Requests sent. */
  readonly requests: number;
  /** Requests completed. */
  readonly completed: number;
  /** Share of all served tokens (prompt + output) that went to this tenant. */
  readonly servedShare: number;
  /** Served tokens / demanded tokens (1 = everything it asked for was served). */
  readonly normalizedThroughput: number;
  /** TTFT p90, ms. */
  readonly ttftP90: number;
}

/**
 * Summary of one policy, as written to report.json.
 * @public
 * @category Report
 */
export interface PolicySummary {
  /** Policy name. */
  readonly policy: string;
  /** Description. */
  readonly description: string;
  /** Requests sent. */
  readonly requests: number;
  /** Requests completed. */
  readonly completed: number;
  /** Requests rejected or failed. */
  readonly failed: number;
  /** Time to first token. */
  readonly ttft: Percentiles;
  /** End-to-end latency. */
  readonly e2e: Percentiles;
  /** Time from arrival to dispatch (admission queueing + scheduling). */
  readonly queue: Percentiles;
  /** Completed requests per second of virtual time. */
  readonly requestsPerSec: number;
  /** Output tokens per second. */
  readonly outputTokensPerSec: number;
  /** Engine-measured prefix-cache hit rate (hits / queries, in tokens). */
  readonly prefixHitRate: number;
  /** Like-for-like results over the measured window (the same offered requests for every policy). */
  readonly measured: MeasuredSummary;
  /** Preemptions across the fleet. */
  readonly preemptions: number;
  /** Per-tenant results. */
  readonly tenants: readonly TenantSummary[];
  /** Jain's fairness index over tenants' normalized throughput (1 = perfectly fair). */
  readonly jain: number;
  /** Requests served per endpoint. */
  readonly endpointRequests: Readonly<Record<string, number>>;
  /** TTFT CDF points `[ms, fraction]`. */
  readonly ttftCdf: readonly (readonly [number, number])[];
  /** E2E CDF points `[ms, fraction]`. */
  readonly e2eCdf: readonly (readonly [number, number])[];
  /** Per-endpoint load (running + waiting) over time: endpoint → `[ms, load]` points. */
  readonly load: Readonly<Record<string, readonly (readonly [number, number])[]>>;
  /** Virtual duration, ms. */
  readonly durationMs: number;
}

/**
 * A whole comparison, as written to report.json.
 * @public
 * @category Report
 */
export interface ComparisonReport {
  /** Title. */
  readonly title: string;
  /** Workload name, description and parameters. */
  readonly workload: { readonly name: string; readonly description: string; readonly params: Readonly<Record<string, unknown>>; readonly requests: number };
  /** Fleet shape (`gateways` replicas route; 1 when absent). */
  readonly fleet: { readonly pods: number; readonly profile: string; readonly scrapeIntervalMs: number; readonly kvEventDelayMs: number; readonly gateways?: number };
  /** Seed (of the first run when several seeds ran). */
  readonly seed: number;
  /** The measured window: arrivals judged, warm-up and drain excluded. */
  readonly window: { readonly fromMs: number; readonly toMs: number; readonly requests: number };
  /** TTFT SLO of the goodput figures, ms. */
  readonly sloTtftMs: number;
  /** The sound references over the measured window (absent when not computed). */
  readonly bounds: BoundsSummary | undefined;
  /** One entry per policy, in run order (the first seed). */
  readonly policies: readonly PolicySummary[];
  /** Means and 95% confidence intervals over every seed run (one seed gives zero-width intervals). */
  readonly acrossSeeds: { readonly seeds: readonly number[]; readonly policies: readonly SeedSummary[] };
  /** Things a reader must know to read the figures (e.g. why two policies tie). */
  readonly notes: readonly string[];
}

/**
 * The sound references of a workload over the measured window (docs/simulator.md, "Sound references").
 * @public
 * @category Report
 */
export interface BoundsSummary {
  /** Unlimited-cache hit bound: reusable prompt tokens / prompt tokens. */
  readonly unlimitedHitRate: number;
  /** Capacity-aware (Belady, fleet KV size) hit bound. */
  readonly capacityHitRate: number;
  /** KV blocks the capacity-aware bound assumed. */
  readonly capacityBlocks: number;
  /** Distribution of the per-request TTFT lower bound, ms. */
  readonly ttftLower: Percentiles;
}

/**
 * Like-for-like results of one policy over the measured window.
 * @public
 * @category Report
 */
export interface MeasuredSummary {
  /** Requests offered in the window. */
  readonly requests: number;
  /** How each ended. */
  readonly outcomes: OutcomeCounts;
  /** Prompt tokens served from cache / prompt tokens offered (failed requests reuse nothing). */
  readonly hitRate: number;
  /** `hitRate` / unlimited-cache bound. */
  readonly hitVsUnlimited: number | undefined;
  /** `hitRate` / capacity-aware bound. */
  readonly hitVsCapacity: number | undefined;
  /** TTFT over every offered request, failures as +∞ (written as null in JSON). */
  readonly ttft: Percentiles;
  /** Per-request TTFT divided by its lower bound (failures +∞): p50 and p90. */
  readonly ttftOverBound: { readonly p50: number; readonly p90: number } | undefined;
  /** Requests with TTFT within the SLO: count, fraction of offered, and per second of window. */
  readonly goodput: { readonly requests: number; readonly fraction: number; readonly perSec: number };
  /** Requests per endpoint: max / mean and coefficient of variation (0 = perfectly even). */
  readonly imbalance: { readonly maxOverMean: number; readonly cv: number };
}

/**
 * One policy's key figures over seeds.
 * @public
 * @category Report
 */
export interface SeedSummary {
  /** Policy name. */
  readonly policy: string;
  /** Measured hit rate. */
  readonly hitRate: SeedInterval;
  /** TTFT p50 with failures as +∞. */
  readonly ttftP50: SeedInterval;
  /** TTFT p90 with failures as +∞. */
  readonly ttftP90: SeedInterval;
  /** Goodput at the SLO, requests/s. */
  readonly goodputPerSec: SeedInterval;
  /** Failed requests in the window. */
  readonly failed: SeedInterval;
}
