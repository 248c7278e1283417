import type { Endpoint, EndpointMetrics } from '../endpoints/types.js';
import { SwitchyardError } from '../errors/switchyard-error.js';

/**
 * What the picker does with endpoints whose metrics are missing (never scraped) or older than the
 * staleness threshold, when other candidates have fresh ones:
 * - `saturated` (default): they are scored as if full — KV cache at 100 % and the longest queue
 *   of the fresh candidates — so they take traffic only when nothing fresh is better;
 * - `exclude`: they are not candidates (when every candidate is stale, all stay: failing open
 *   beats an outage caused by a metrics hiccup);
 * - `ignore`: their last values are used as they are (the behaviour before staleness existed).
 * @public
 * @category Model-server metrics
 */
export type StalenessPolicy = 'saturated' | 'exclude' | 'ignore';

/**
 * The staleness rule of a picker.
 * @public
 * @category Model-server metrics
 */
export interface StalenessSettings {
  /** See {@link StalenessPolicy}. */
  readonly policy: StalenessPolicy;
  /** Metrics older than this (ms) are stale; llm-d's `--metrics-staleness-threshold`. */
  readonly thresholdMs: number;
}

/**
 * Defaults of {@link StalenessSettings}: `saturated`, 2 s. @public
 * @category Model-server metrics
 */
export const DEFAULT_STALENESS: StalenessSettings = Object.freeze({ policy: 'saturated', thresholdMs: 2000 });

const POLICIES: readonly string[] = ['saturated', 'exclude', 'ignore'];

/**
 * Checks staleness settings given by code or config.
 * @throws SwitchyardError `CONFIG_INVALID` naming the field (prefixed by `path`)
 * @public
 * @category Model-server metrics
 */
export function validateStaleness(s: { readonly policy?: unknown; readonly thresholdMs?: unknown }, path = 'staleness'): StalenessSettings {
  const policy = s.policy ?? DEFAULT_STALENESS.policy;
  const thresholdMs = s.thresholdMs ?? DEFAULT_STALENESS.thresholdMs;
  if (typeof policy !== 'string' || !POLICIES.includes(policy)) {
    throw new SwitchyardError('CONFIG_INVALID', `${path}.policy must be one of ${POLICIES.join(', ')}, got ${JSON.stringify(policy)}`);
  }
  if (typeof thresholdMs !== 'number' || !Number.isFinite(thresholdMs) || thresholdMs <= 0) {
    throw new SwitchyardError('CONFIG_INVALID', `${path}.thresholdMs must be a positive number of milliseconds, got ${typeof thresholdMs === 'number' ? String(thresholdMs) : JSON.stringify(thresholdMs)}`);
  }
  return { policy: policy as StalenessPolicy, thresholdMs };
}

/**
 * Whether an endpoint's metrics are missing or older than `thresholdMs` at `now`. @public
 * @category Model-server metrics
 */
export function isStale(endpoint: Endpoint, now: number, thresholdMs: number): boolean {
  const m = endpoint.metrics;
  return m === undefined || now - m.updatedAt > thresholdMs;
}

/**
 * The candidates after the staleness rule, and how many were stale.
 * @public
 * @category Model-server metrics
 */
export interface StalenessOutcome {
  /** Candidates to schedule over (the input array itself when nothing changed). */
  readonly endpoints: readonly Endpoint[];
  /** Candidates whose metrics were missing or stale. */
  readonly stale: number;
}

function saturatedMetrics(m: EndpointMetrics | undefined, worst: EndpointMetrics): EndpointMetrics {
  return {
    waitingQueueSize: worst.waitingQueueSize,
    runningRequestsSize: worst.runningRequestsSize,
    kvCacheUsagePercent: 1,
    activeModels: m?.activeModels ?? [],
    waitingModels: m?.waitingModels ?? [],
    maxActiveModels: m?.maxActiveModels ?? 0,
    cacheBlockSize: m?.cacheBlockSize ?? 0,
    cacheNumBlocks: m?.cacheNumBlocks ?? 0,
    updatedAt: m?.updatedAt ?? -Infinity,
  };
}

/**
 * Applies a staleness rule to one cycle's candidates. Nothing changes when every candidate is
 * fresh, or every one is stale (there is nothing to tell them apart by), or the policy is
 * `ignore`. Under `saturated` a stale endpoint is replaced by a view of it (its prototype is the
 * live endpoint, so ids, addresses and in-flight counts read through) whose metrics say full.
 * @public
 * @category Model-server metrics
 */
export function applyStaleness(candidates: readonly Endpoint[], now: number, settings: StalenessSettings): StalenessOutcome {
  let stale = 0;
  for (const e of candidates) if (isStale(e, now, settings.thresholdMs)) stale++;
  if (stale === 0 || settings.policy === 'ignore' || stale === candidates.length) return { endpoints: candidates, stale };
  if (settings.policy === 'exclude') return { endpoints: candidates.filter((e) => !isStale(e, now, settings.thresholdMs)), stale };
  let waiting = 0;
  let running = 0;
  for (const e of candidates) {
    const m = e.metrics;
    if (m === undefined || isStale(e, now, settings.thresholdMs)) continue;
    if (m.waitingQueueSize > waiting) waiting = m.waitingQueueSize;
    if (m.runningRequestsSize > running) running = m.runningRequestsSize;
  }
  const worst = { waitingQueueSize: waiting, runningRequestsSize: running } as EndpointMetrics;
  const out = candidates.map((e): Endpoint => {
    if (!isStale(e, now, settings.thresholdMs)) return e;
    return Object.create(e, { metrics: { value: saturatedMetrics(e.metrics, worst), enumerable: true } }) as Endpoint;
  });
  return { endpoints: out, stale };
}
