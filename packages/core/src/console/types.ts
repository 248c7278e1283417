import type { DecisionOutcome } from './decision-log.js';

/**
 * Health of an endpoint as the console shows it. `rotated-out`: the gateway's circuit breaker
 * took it out of rotation; `stale`: its last metrics are older than the staleness threshold;
 * `no-metrics`: never scraped yet.
 * @public
 * @category Decision console
 */
export type EndpointHealth = 'healthy' | 'stale' | 'no-metrics' | 'rotated-out';

/**
 * One endpoint in {@link ConsoleSnapshot}.
 * @public
 * @category Decision console
 */
export interface ConsoleEndpoint {
  readonly id: string;
  readonly address: string;
  readonly labels: Readonly<Record<string, string>>;
  /** `llm-d.ai/role` label (`decode`, `prefill`, `both`...), or undefined. */
  readonly role: string | undefined;
  /** Data-parallel rank: the `-rank-N` suffix of the id, or the `llm-d.ai/rank` label. */
  readonly rank: number | undefined;
  readonly engine: string;
  /** Milliseconds since the last metrics update; undefined before the first. */
  readonly lastScrapeAgeMs: number | undefined;
  /** Engine queue (waiting requests). */
  readonly waiting: number | undefined;
  /** Running requests. */
  readonly running: number | undefined;
  /** KV-cache usage in [0, 1]. */
  readonly kvCacheUsage: number | undefined;
  /** LoRA adapters loaded. */
  readonly activeLoras: readonly string[];
  /** LoRA adapters waiting for a slot. */
  readonly waitingLoras: readonly string[];
  /** Most LoRA adapters the engine holds at once (0: unknown). */
  readonly maxLoras: number | undefined;
  /** KV-cache block size in tokens (0: unknown). */
  readonly cacheBlockSize: number | undefined;
  /** KV-cache blocks (0: unknown). */
  readonly cacheNumBlocks: number | undefined;
  /** Requests dispatched by this process and not yet completed. */
  readonly inFlightRequests: number;
  readonly inFlightTokens: number;
  readonly health: EndpointHealth;
}

/**
 * One pool in {@link ConsoleSnapshot}.
 * @public
 * @category Decision console
 */
export interface ConsolePool {
  readonly name: string;
  readonly endpoints: readonly ConsoleEndpoint[];
}

/**
 * One flow (fairness id within a priority band) of {@link ConsoleBand}.
 * @public
 * @category Decision console
 */
export interface ConsoleFlow {
  readonly fairnessId: string;
  readonly queuedRequests: number;
  readonly queuedBytes: number;
  /** Milliseconds the oldest queued request of the flow has waited (0 when empty). */
  readonly oldestWaitMs: number;
}

/**
 * One priority band of {@link ConsoleFlowControl}.
 * @public
 * @category Decision console
 */
export interface ConsoleBand {
  readonly priority: number;
  readonly queuedRequests: number;
  readonly queuedBytes: number;
  readonly maxRequests: number;
  readonly maxBytes: number;
  /** Jain's fairness index of tokens served across the band's flows (1 = even). */
  readonly jainIndex: number;
  readonly fairness: string;
  readonly ordering: string;
  readonly flows: readonly ConsoleFlow[];
}

/**
 * Flow control of one pool in {@link ConsoleSnapshot}.
 * @public
 * @category Decision console
 */
export interface ConsoleFlowControl {
  readonly pool: string;
  readonly queuedRequests: number;
  readonly inFlightRequests: number;
  /** Pool saturation in [0, 1+]. */
  readonly saturation: number;
  /** Requests dispatched per second over the rate window. */
  readonly dispatchRate: number;
  /** Requests rejected or expired per second over the rate window. */
  readonly rejectionRate: number;
  /** Seconds the rates are measured over. */
  readonly rateWindowSeconds: number;
  readonly bands: readonly ConsoleBand[];
}

/**
 * One prefix index in {@link ConsoleSnapshot}.
 * @public
 * @category Decision console
 */
export interface ConsolePrefixIndex {
  readonly pool: string;
  /** `approximate` or `precise`. */
  readonly kind: string;
  /** Indexed (block, endpoint) entries. */
  readonly entries: number;
  /** Distinct blocks. */
  readonly blocks: number;
  /** Estimated memory in bytes (measured bytes per entry × entries; see docs/prefix-cache.md). */
  readonly estimatedBytes: number;
  /** Mean matched fraction of the best endpoint's blocks per request since start; undefined before any. */
  readonly hitRate: number | undefined;
  readonly lookups: number;
  readonly evictions: number;
}

/**
 * A decision in the console's list (the trace is fetched per request id).
 * @public
 * @category Decision console
 */
export interface ConsoleDecisionSummary {
  readonly requestId: string;
  readonly pool: string;
  /** Clock time (ms). */
  readonly at: number;
  readonly model: string;
  readonly targetModel: string;
  readonly fairnessId: string;
  readonly priority: number;
  readonly endpoint: string | undefined;
  readonly fallbacks: readonly string[];
  readonly outcome: DecisionOutcome;
  readonly error: string | undefined;
  readonly scheduleMs: number | undefined;
  readonly totalMs: number | undefined;
}

/**
 * Everything the console page shows, as served by `GET /console/api/snapshot`.
 * @public
 * @category Decision console
 */
export interface ConsoleSnapshot {
  /** Format version of this document. */
  readonly version: 1;
  /** Clock time (ms) of the snapshot. */
  readonly now: number;
  /** Which server: `switchyard-gateway` or `switchyard-epp`. */
  readonly server: string;
  readonly pools: readonly ConsolePool[];
  readonly flowControl: readonly ConsoleFlowControl[];
  readonly prefixIndexes: readonly ConsolePrefixIndex[];
  /** Requests recorded since start (the list holds the newest `capacity`). */
  readonly decisionsTotal: number;
  /** Newest first. */
  readonly decisions: readonly ConsoleDecisionSummary[];
}
