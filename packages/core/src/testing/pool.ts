/*
 * Metrics and pool builders for tests. One default set for every package: an idle vLLM-like
 * engine (16-token blocks, 1000 blocks) whose metrics were scraped at time 0.
 */
import { EndpointPool } from '../endpoints/pool.js';
import type { Endpoint, EndpointMetrics } from '../endpoints/types.js';

/**
 * Full {@link EndpointMetrics} for tests. Defaults: empty queues, 0 KV-cache usage, no models,
 * `cacheBlockSize` 16, `cacheNumBlocks` 1000, `updatedAt` 0. Pass `cacheBlockSize: 0` for an
 * engine that does not report its block size.
 * @public
 */
export function metrics(over: Partial<EndpointMetrics> = {}): EndpointMetrics {
  return {
    waitingQueueSize: 0,
    runningRequestsSize: 0,
    kvCacheUsagePercent: 0,
    activeModels: [],
    waitingModels: [],
    maxActiveModels: 0,
    cacheBlockSize: 16,
    cacheNumBlocks: 1000,
    updatedAt: 0,
    ...over,
  };
}

/**
 * Metrics of pool member `i` (merged over {@link metrics}); `undefined`: no metrics yet.
 * @public
 */
export type MemberMetrics = (i: number) => Partial<EndpointMetrics> | undefined;

/**
 * Labels of pool member `i`.
 * @public
 */
export type MemberLabels = (i: number) => Readonly<Record<string, string>>;

/**
 * A pool for tests. `members` is a count (ids `e0`, `e1`, ...) or a list of ids; member `i` listens
 * on `10.0.0.<i+1>:8000`. Members have no metrics unless `memberMetrics` gives some, and no labels
 * unless `memberLabels` does.
 * @public
 */
export function poolOf(members: number | readonly string[], memberMetrics?: MemberMetrics, memberLabels?: MemberLabels): EndpointPool {
  const ids = typeof members === 'number' ? Array.from({ length: members }, (_, i) => `e${i}`) : members;
  const pool = new EndpointPool();
  ids.forEach((id, i) => {
    pool.add({ id, address: `10.0.0.${i + 1}:8000`, labels: memberLabels?.(i) ?? {} });
    const m = memberMetrics?.(i);
    if (m !== undefined) pool.setMetrics(id, metrics(m));
  });
  return pool;
}

/**
 * The endpoints of {@link poolOf} with the same arguments, in member order.
 * @public
 */
export function endpoints(members: number | readonly string[], memberMetrics?: MemberMetrics, memberLabels?: MemberLabels): readonly Endpoint[] {
  return poolOf(members, memberMetrics, memberLabels).list();
}
