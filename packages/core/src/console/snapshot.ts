import type { Clock } from '../clock/clock.js';
import type { EndpointPool } from '../endpoints/pool.js';
import { ROLE_LABEL, type Endpoint } from '../endpoints/types.js';
import type { DecisionLog, DecisionRecord } from './decision-log.js';
import type { ConsoleDecisionSummary, ConsoleEndpoint, ConsoleFlowControl, ConsolePrefixIndex, ConsoleSnapshot, EndpointHealth } from './types.js';

/**
 * What the console reads about one pool. Flow control and the prefix index live in other
 * packages, so they are handed in as functions (`flowControlConsoleSource` of
 * `@switchyard/flow-control`, `prefixIndexConsoleSource` of `@switchyard/prefix-index`).
 * @public
 * @category Decision console
 */
export interface ConsolePoolSource {
  /** Pool name. */
  readonly name: string;
  /** Every endpoint of the pool, including those out of rotation. */
  readonly endpoints: EndpointPool;
  /** Whether the gateway's circuit breaker has taken an endpoint out of rotation. */
  readonly isRotatedOut?: (id: string) => boolean;
  /** The pool's flow control now, when it has any. */
  readonly flowControl?: () => Omit<ConsoleFlowControl, 'pool'>;
  /** The pool's prefix indexes now. */
  readonly prefixIndexes?: () => readonly Omit<ConsolePrefixIndex, 'pool'>[] | Promise<readonly Omit<ConsolePrefixIndex, 'pool'>[]>;
}

/**
 * Options of {@link buildConsoleSnapshot} and `createConsoleHandler`.
 * @public
 * @category Decision console
 */
export interface ConsoleOptions {
  /** Server name shown in the page title (`switchyard-gateway`, `switchyard-epp`). */
  readonly server: string;
  /** The pools (a function when pools come and go). */
  readonly pools: readonly ConsolePoolSource[] | (() => readonly ConsolePoolSource[]);
  /** Recent decisions (fill it with `recordDecisions`). */
  readonly decisions: DecisionLog;
  /** Metrics older than this make an endpoint `stale`. @default 5000 */
  readonly stalenessMs?: number;
  /** Time source for ages. @default the decision log's clock */
  readonly clock?: Clock;
}

const RANK_SUFFIX = /-rank-(\d+)$/;

function rankOf(e: Endpoint): number | undefined {
  const label = e.labels['llm-d.ai/rank'];
  if (label !== undefined && /^\d+$/.test(label)) return Number(label);
  const m = RANK_SUFFIX.exec(e.id);
  return m === null ? undefined : Number(m[1]);
}

/**
 * One endpoint's row.
 * @category Decision console
 */
export function consoleEndpoint(e: Endpoint, now: number, stalenessMs: number, rotatedOut: boolean): ConsoleEndpoint {
  const m = e.metrics;
  const age = m === undefined ? undefined : Math.max(0, now - m.updatedAt);
  let health: EndpointHealth = 'healthy';
  if (rotatedOut) health = 'rotated-out';
  else if (age === undefined) health = 'no-metrics';
  else if (age > stalenessMs) health = 'stale';
  return {
    id: e.id,
    address: e.address,
    labels: e.labels,
    role: e.labels[ROLE_LABEL],
    rank: rankOf(e),
    engine: e.engineType,
    lastScrapeAgeMs: age,
    waiting: m?.waitingQueueSize,
    running: m?.runningRequestsSize,
    kvCacheUsage: m?.kvCacheUsagePercent,
    activeLoras: m?.activeModels ?? [],
    waitingLoras: m?.waitingModels ?? [],
    maxLoras: m?.maxActiveModels,
    cacheBlockSize: m?.cacheBlockSize,
    cacheNumBlocks: m?.cacheNumBlocks,
    inFlightRequests: e.inFlightRequests,
    inFlightTokens: e.inFlightTokens,
    health,
  };
}

/**
 * A decision record without its trace.
 * @category Decision console
 */
export function decisionSummary(r: DecisionRecord): ConsoleDecisionSummary {
  return {
    requestId: r.requestId,
    pool: r.pool,
    at: r.at,
    model: r.model,
    targetModel: r.targetModel,
    fairnessId: r.fairnessId,
    priority: r.priority,
    endpoint: r.endpoint,
    fallbacks: r.fallbacks,
    outcome: r.outcome,
    error: r.error,
    scheduleMs: r.scheduleMs,
    totalMs: r.totalMs,
  };
}

/**
 * Reads everything the console shows, now (asynchronous because metrics registries are). Cheap enough to call once a second: it walks the
 * endpoints, the flow-control bands and the decision ring once.
 * @public
 * @category Decision console
 */
export async function buildConsoleSnapshot(options: ConsoleOptions, decisionLimit?: number): Promise<ConsoleSnapshot> {
  const clock = options.clock ?? options.decisions.clock;
  const now = clock.now();
  const staleness = options.stalenessMs ?? 5000;
  const sources = typeof options.pools === 'function' ? options.pools() : options.pools;
  const pools = sources.map((s) => ({
    name: s.name,
    endpoints: s.endpoints.list().map((e) => consoleEndpoint(e, now, staleness, s.isRotatedOut?.(e.id) ?? false)),
  }));
  const flowControl: ConsoleFlowControl[] = [];
  const prefixIndexes: ConsolePrefixIndex[] = [];
  for (const s of sources) {
    if (s.flowControl !== undefined) flowControl.push({ pool: s.name, ...s.flowControl() });
    for (const p of (await s.prefixIndexes?.()) ?? []) prefixIndexes.push({ pool: s.name, ...p });
  }
  return {
    version: 1,
    now,
    server: options.server,
    pools,
    flowControl,
    prefixIndexes,
    decisionsTotal: options.decisions.total,
    decisions: options.decisions.recent(decisionLimit).map(decisionSummary),
  };
}

/**
 * Convenience for a source without a circuit breaker.
 * @category Decision console
 */
export function poolSource(name: string, endpoints: EndpointPool): ConsolePoolSource {
  return { name, endpoints };
}
