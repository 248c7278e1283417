import { z } from 'zod';
import type { EndpointPool } from '../endpoints/pool.js';
import { SwitchyardError } from '../errors/switchyard-error.js';

const count = z.number().min(0);
const endpointSchema = z.object({
  id: z.string().min(1),
  address: z.string().min(1).optional(),
  labels: z.record(z.string(), z.string()).optional(),
  lastScrapeAgeMs: count.optional().nullable(),
  waiting: count.optional().nullable(),
  running: count.optional().nullable(),
  kvCacheUsage: count.optional().nullable(),
  activeLoras: z.array(z.string()).default([]),
  waitingLoras: z.array(z.string()).default([]),
  maxLoras: count.optional().nullable(),
  cacheBlockSize: count.optional().nullable(),
  cacheNumBlocks: count.optional().nullable(),
  inFlightRequests: count.default(0),
  inFlightTokens: count.default(0),
});
/**
 * Schema of a recorded pool ({@link PoolRecording}): the fields of a console snapshot that
 * `explain` replays.
 * @public
 * @category Decision console
 */
export const poolRecordingSchema = z.object({
  now: z.number(),
  pools: z.array(z.object({ name: z.string(), endpoints: z.array(endpointSchema) })),
});

/**
 * A recorded pool state to replay: the console's `GET /console/api/snapshot` document (other
 * fields are ignored), so "why did this go there" can be answered from what the console showed.
 * @public
 * @category Decision console
 */
export type PoolRecording = z.output<typeof poolRecordingSchema>;

/**
 * Validates a recorded snapshot (parsed JSON).
 * @throws SwitchyardError `CONFIG_INVALID` naming the bad field (`pools[0].endpoints[1].waiting`)
 * @public
 * @category Decision console
 */
export function parsePoolRecording(value: unknown, where = 'metrics snapshot'): PoolRecording {
  const parsed = poolRecordingSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = (issue?.path ?? []).map((k) => (typeof k === 'number' ? `[${String(k)}]` : `.${String(k)}`)).join('').replace(/^\./, '');
  throw new SwitchyardError('CONFIG_INVALID', `${where}: ${path === '' ? '' : `${path}: `}${issue?.message ?? 'invalid'}`);
}

/**
 * Applies a recorded pool to a live `EndpointPool`: each endpoint of the recording's pool
 * `poolName` (or its first pool) that the pool knows by id gets the recorded metrics, with the
 * same age relative to `now`, and the recorded in-flight load. Endpoints the recording does not
 * name keep what they have (no metrics, for a fresh pool).
 * @returns the ids applied
 * @public
 * @category Decision console
 */
export function applyPoolRecording(pool: EndpointPool, recording: PoolRecording, now: number, poolName?: string): string[] {
  const source = recording.pools.find((p) => p.name === poolName) ?? recording.pools[0];
  const applied: string[] = [];
  for (const e of source?.endpoints ?? []) {
    const current = pool.get(e.id);
    if (current === undefined) continue;
    if (e.lastScrapeAgeMs !== undefined && e.lastScrapeAgeMs !== null) {
      pool.setMetrics(e.id, {
        waitingQueueSize: e.waiting ?? 0,
        runningRequestsSize: e.running ?? 0,
        kvCacheUsagePercent: e.kvCacheUsage ?? 0,
        activeModels: e.activeLoras,
        waitingModels: e.waitingLoras,
        maxActiveModels: e.maxLoras ?? 0,
        cacheBlockSize: e.cacheBlockSize ?? 0,
        cacheNumBlocks: e.cacheNumBlocks ?? 0,
        updatedAt: now - e.lastScrapeAgeMs,
      });
    }
    pool.addInFlight(e.id, e.inFlightRequests - current.inFlightRequests, e.inFlightTokens - current.inFlightTokens);
    applied.push(e.id);
  }
  return applied;
}
