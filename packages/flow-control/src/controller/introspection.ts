import type { PoolSaturation } from '@switchyard/core';
import { jainsIndex } from '../metrics/jain.js';
import type { FlowControlMetricsSource } from '../metrics/flow-metrics.js';
import type { BandTable } from './bands.js';
import type { Band } from './flow.js';

/**
 * One band in {@link FlowControllerStats}.
 * @public
 * @category Controller
 */
export interface BandStats {
  /** Band priority. */
  readonly priority: number;
  /** Requests queued in the band. */
  readonly queuedRequests: number;
  /** Body bytes queued in the band. */
  readonly queuedBytes: number;
  /** The band's request limit. */
  readonly maxRequests: number;
  /** The band's byte limit. */
  readonly maxBytes: number;
  /** Live flows (queued or recently used). */
  readonly flows: number;
  /** Fairness policy instance name. */
  readonly fairness: string;
  /** Ordering policy instance name. */
  readonly ordering: string;
}

/**
 * A snapshot of a controller's state.
 * @public
 * @category Controller
 */
export interface FlowControllerStats {
  /** Requests waiting in all queues. */
  readonly queuedRequests: number;
  /** Body bytes waiting in all queues. */
  readonly queuedBytes: number;
  /** Grants handed out and not yet released. */
  readonly inFlightRequests: number;
  /** Estimated tokens of those grants. */
  readonly inFlightTokens: number;
  /** Revocations waiting for their slot to come back. */
  readonly pendingRevocations: number;
  /** Requests being tracked for TTL expiry. */
  readonly expiringRequests: number;
  /** Bands, highest priority first. */
  readonly bands: readonly BandStats[];
  /** Whether `close()` was called. */
  readonly closed: boolean;
}

/**
 * One flow (FlowKey) in {@link FlowController.flowStats}.
 * @public
 * @category Controller
 */
export interface FlowStats {
  /** Fairness (tenant) id. */
  readonly fairnessId: string;
  /** Band priority. */
  readonly priority: number;
  /** Requests queued in the flow. */
  readonly queuedRequests: number;
  /** Body bytes queued in the flow. */
  readonly queuedBytes: number;
  /** Clock time (ms) the flow's head request was enqueued; undefined when the flow is empty. */
  readonly headEnqueuedAt: number | undefined;
}

/** The flows of a band, as {@link FlowStats}. */
export function flowStats(band: Band): FlowStats[] {
  const out: FlowStats[] = [];
  for (const f of band.flows.values()) {
    out.push({ fairnessId: f.fairnessId, priority: band.priority, queuedRequests: f.size, queuedBytes: f.bytes, headEnqueuedAt: f.head()?.enqueuedAt });
  }
  return out;
}

/** Band snapshot. */
export function bandStats(band: Band): BandStats {
  return {
    priority: band.priority,
    queuedRequests: band.queuedRequests,
    queuedBytes: band.queuedBytes,
    maxRequests: band.settings.maxRequests,
    maxBytes: band.settings.maxBytes,
    flows: band.flows.size,
    fairness: band.settings.fairness.name,
    ordering: band.settings.ordering.name,
  };
}

/** Jain's index of a band's flows over the current window (flows that were served or are waiting). */
export function bandFairness(band: Band): number {
  const shares: number[] = [];
  for (const f of band.flows.values()) if (f.served > 0 || f.size > 0) shares.push(f.served);
  return jainsIndex(shares);
}

/** Adapts a controller's band table to the scrape-time metrics interface. */
export function metricsSource(table: BandTable, stages: () => PoolSaturation, limits: { readonly maxRequests: number; readonly maxBytes: number }): FlowControlMetricsSource {
  return {
    globalCapacity: () => ({ requests: table.totalRequests, maxRequests: limits.maxRequests, bytes: table.totalBytes, maxBytes: limits.maxBytes }),
    forEachFlow(fn) {
      for (const b of table.bands) for (const f of b.flows.values()) fn(f.fairnessId, b.priority, f.size, f.bytes);
    },
    forEachFlowModel(fn) {
      // Scrape time only: group each flow's queued items by model pair, with 0 for pairs seen before.
      for (const b of table.bands) {
        for (const f of b.flows.values()) {
          const pairs = new Map<string, [string, string, number, number]>();
          f.metricCache.forEachPair((m, t) => pairs.set(`${m}\u0000${t}`, [m, t, 0, 0]));
          for (const item of f.queue.items()) {
            const m = item.request.request.model;
            const t = item.request.targetModel;
            const key = `${m}\u0000${t}`;
            const p = pairs.get(key);
            if (p === undefined) pairs.set(key, [m, t, 1, item.byteSize]);
            else {
              p[2]++;
              p[3] += item.byteSize;
            }
          }
          for (const [m, t, size, bytes] of pairs.values()) fn(f.fairnessId, b.priority, m, t, size, bytes);
        }
      }
    },
    forEachBand(fn) {
      for (const b of table.bands) fn(b.priority, b.queuedRequests, b.settings.maxRequests, b.queuedBytes, b.settings.maxBytes);
    },
    takeFairnessIndexes() {
      const out = new Map<number, number>();
      for (const b of table.bands) {
        out.set(b.priority, bandFairness(b));
        for (const f of b.flows.values()) f.served = 0;
      }
      return out;
    },
    stageSaturation: stages,
  };
}
