/**
 * What happened to one request in a simulated run. Times are ms from the start of the run.
 * @public
 */
export interface RequestRecord {
  /** Workload item id. */
  readonly id: string;
  /** Tenant. */
  readonly tenant: string;
  /** Priority. */
  readonly priority: number;
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
  /** `prefixHitRate` divided by the oracle's (undefined without an oracle run). */
  readonly hitRateVsOracle: number | undefined;
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
 */
export interface ComparisonReport {
  /** Title. */
  readonly title: string;
  /** Workload name, description and parameters. */
  readonly workload: { readonly name: string; readonly description: string; readonly params: Readonly<Record<string, unknown>>; readonly requests: number };
  /** Fleet shape. */
  readonly fleet: { readonly pods: number; readonly profile: string; readonly scrapeIntervalMs: number; readonly kvEventDelayMs: number };
  /** Seed. */
  readonly seed: number;
  /** One entry per policy, in run order. */
  readonly policies: readonly PolicySummary[];
}
