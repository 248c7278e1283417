import type { Clock, Usage } from '@switchyard/core';
import type { Registry } from 'prom-client';
import { registerProgramAwareMetrics } from './program-aware-metrics.js';
import type { FairnessPolicy, FlowSelector, FlowView } from './types.js';

/**
 * Registry type of the program-aware (least-attained-service) fairness policy. @public
 * @category Policies
 */
export const PROGRAM_AWARE_FAIRNESS = 'program-aware-fairness';

/**
 * Options of {@link createProgramAwareFairness}, with llm-d's parameter names (seconds).
 * @public
 * @category Policies
 */
export interface ProgramAwareOptions {
  /** Weight of the (inverted, normalised) attained service in a flow's score (default 0.8). */
  readonly lasWeightService?: number;
  /** Weight of the (normalised) head-of-queue wait in a flow's score (default 0.2). */
  readonly lasWeightHeadWait?: number;
  /** Half-life of attained service in seconds; 0 means no decay (default 60). */
  readonly lasHalfLifeSeconds?: number;
  /** A program idle this long is forgotten; 0 keeps every program (default 3600). */
  readonly evictionTtlSeconds?: number;
  /** How often idle programs are looked for (default 300). */
  readonly evictionSweepSeconds?: number;
  /** Instance name. */
  readonly name?: string;
  /** Registry for llm-d's `program_aware_*` gauges (none when absent). */
  readonly metrics?: Registry | undefined;
}

interface Program {
  /** Attained service (token cost) decayed to `at`. */
  service: number;
  /** Last activity (a dispatch or a charge); decay and idle eviction count from here. */
  at: number;
  /** Queue waits (ms) of the program's dispatched requests, for the mean-wait gauge. */
  waitSumMs: number;
  dispatches: number;
}

/**
 * `program-aware-fairness` (llm-d's least-attained-service policy): a program is a fairness id,
 * and the flow to dispatch is the one with the best `wS·(1 − norm(service)) + wW·norm(headWait)`,
 * each term min-max normalised over the band's non-empty flows (0.5 when all are equal). A
 * program's service grows by `promptTokens + 2·completionTokens` when one of its requests
 * completes, and halves every `lasHalfLifeSeconds`, so a program that has been served a lot
 * yields to newer ones while a long-waiting head still gets its turn. Idle programs are dropped
 * after `evictionTtlSeconds`, which bounds the table.
 * @public
 * @category Policies
 */
export function createProgramAwareFairness(clock: Clock, options: ProgramAwareOptions = {}): FairnessPolicy {
  const wS = options.lasWeightService ?? 0.8;
  const wW = options.lasWeightHeadWait ?? 0.2;
  const halfLifeMs = (options.lasHalfLifeSeconds ?? 60) * 1000;
  const ttlMs = (options.evictionTtlSeconds ?? 3600) * 1000;
  const sweepMs = (options.evictionSweepSeconds ?? 300) * 1000;
  const programs = new Map<string, Program>();
  let lastSweep = clock.now();

  const decayed = (p: Program, now: number): number => (halfLifeMs > 0 ? p.service * 2 ** (-(now - p.at) / halfLifeMs) : p.service);
  const serviceOf = (id: string, now: number): number => {
    const p = programs.get(id);
    return p === undefined ? 0 : decayed(p, now);
  };
  const sweep = (now: number): void => {
    if (ttlMs <= 0 || now - lastSweep < sweepMs) return;
    lastSweep = now;
    for (const [id, p] of programs) if (now - p.at >= ttlMs) programs.delete(id);
  };
  const charge = (id: string, cost: number): void => {
    const now = clock.now();
    sweep(now);
    const p = programOf(id, now);
    p.service += cost;
  };
  /** The program's entry with its service decayed to `now` (created when new). */
  const programOf = (id: string, now: number): Program => {
    let p = programs.get(id);
    if (p === undefined) {
      p = { service: 0, at: now, waitSumMs: 0, dispatches: 0 };
      programs.set(id, p);
    } else {
      p.service = decayed(p, now);
      p.at = now;
    }
    return p;
  };
  /** One request of program `id` left admission now, having been enqueued at `enqueuedAt`. */
  const recordWait = (id: string, enqueuedAt: number): void => {
    const now = clock.now();
    sweep(now);
    const p = programOf(id, now);
    p.waitSumMs += Math.max(0, now - enqueuedAt);
    p.dispatches += 1;
  };
  if (options.metrics !== undefined) {
    registerProgramAwareMetrics(options.metrics, {
      forEachProgram(fn) {
        const now = clock.now();
        for (const [id, p] of programs) fn(id, p.dispatches === 0 ? undefined : p.waitSumMs / p.dispatches, decayed(p, now));
      },
    });
  }

  return {
    type: PROGRAM_AWARE_FAIRNESS,
    name: options.name ?? PROGRAM_AWARE_FAIRNESS,
    kind: 'fairness-policy',
    createSelector(): FlowSelector {
      const flows = new Set<FlowView>();
      return {
        add: (flow) => void flows.add(flow),
        remove: (flow) => void flows.delete(flow),
        headChanged() {
          // Scores are computed at selection time.
        },
        select(): FlowView {
          const now = clock.now();
          let sMin = Infinity, sMax = -Infinity, eMin = Infinity, eMax = -Infinity;
          for (const f of flows) {
            const s = serviceOf(f.fairnessId, now);
            const e = f.head()?.enqueuedAt ?? now;
            sMin = Math.min(sMin, s); sMax = Math.max(sMax, s);
            eMin = Math.min(eMin, e); eMax = Math.max(eMax, e);
          }
          let best: FlowView | undefined;
          let bestScore = -Infinity;
          for (const f of flows) {
            const s = serviceOf(f.fairnessId, now);
            // Wait = now − enqueuedAt, so the wait's min-max norm is (eMax − e)/(eMax − eMin).
            const e = f.head()?.enqueuedAt ?? now;
            const normS = sMax > sMin ? (s - sMin) / (sMax - sMin) : 0.5;
            const normW = eMax > eMin ? (eMax - e) / (eMax - eMin) : 0.5;
            const score = wS * (1 - normS) + wW * normW;
            // Ties go to the smaller fairness id, so the choice never depends on activation order.
            if (score > bestScore || (score === bestScore && best !== undefined && f.fairnessId < best.fairnessId)) {
              best = f;
              bestScore = score;
            }
          }
          return best as FlowView;
        },
        dispatched(flow, item) {
          // Service is charged at completion, with the real token counts; the queue wait is
          // known now (llm-d records it when the request leaves the queue, in PreRequest).
          recordWait(flow.fairnessId, item.enqueuedAt);
        },
        passedThrough(flow, item) {
          // Granted without queueing: a wait of 0 that llm-d's PreRequest counts too.
          recordWait(flow.fairnessId, item.enqueuedAt);
        },
        settle(flow, _estimated, _actual, usage?: Usage) {
          if (usage !== undefined) charge(flow.fairnessId, usage.promptTokens + 2 * usage.completionTokens);
        },
      };
    },
  };
}
