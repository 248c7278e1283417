/*
 * Test-only helpers shared by the scheduler's tests (not exported from the package). They build
 * requests and pools the way adapters would, without depending on the request parser.
 */
import { seededRandom } from '../clock/seeded-random.js';
import { ManualClock } from '../clock/manual-clock.js';
import { EndpointPool } from '../endpoints/pool.js';
import type { Endpoint, EndpointMetrics } from '../endpoints/types.js';
import type { InferenceRequest, PromptView } from '../request/types.js';
import { createSchedulingRequest, type SchedulingRequestInit } from './make-request.js';
import type { PluginDefinition } from '../registry/types.js';
import type { CycleContext, Plugin, Scorer } from './plugins.js';
import type { SchedulingRequest } from './request.js';
import { TraceRecorder } from './trace.js';

/** Builds an {@link InferenceRequest} for a chat completion. */
export function inferenceRequest(over: Partial<InferenceRequest> & { prompt?: PromptView } = {}): InferenceRequest {
  const model = over.model ?? 'm1';
  const body = over.body ?? { model, messages: [{ role: 'user', content: 'hello' }] };
  const raw = over.rawBody ?? new TextEncoder().encode(JSON.stringify(body));
  return {
    id: 'req-1',
    path: '/v1/chat/completions',
    api: 'openai-chat-completions',
    headers: {},
    model,
    stream: false,
    maxOutputTokens: undefined,
    prompt: { kind: 'chat', messages: [{ role: 'user', content: 'hello' }], toolsJson: undefined },
    cacheSalt: undefined,
    byteSize: raw.byteLength,
    body,
    rawBody: raw,
    ...over,
  };
}

/** Builds a {@link SchedulingRequest} around {@link inferenceRequest}. */
export function schedulingRequest(init: SchedulingRequestInit & { request?: Partial<InferenceRequest> } = {}): SchedulingRequest {
  return createSchedulingRequest(inferenceRequest(init.request), init);
}

/** Full metrics with defaults. */
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

/** A pool of `n` endpoints 10.0.0.i:8000 (ids `e0..`), with optional per-endpoint metrics and labels. */
export function poolOf(n: number, m?: (i: number) => Partial<EndpointMetrics> | undefined, labels?: (i: number) => Record<string, string>): EndpointPool {
  const pool = new EndpointPool();
  for (let i = 0; i < n; i++) {
    pool.add({ id: `e${i}`, address: `10.0.0.${i + 1}:8000`, labels: labels?.(i) ?? {} });
    const mm = m?.(i);
    if (mm !== undefined) pool.setMetrics(`e${i}`, metrics(mm));
  }
  return pool;
}

/** Endpoints of {@link poolOf}. */
export function endpoints(n: number, m?: (i: number) => Partial<EndpointMetrics> | undefined, labels?: (i: number) => Record<string, string>): readonly Endpoint[] {
  return poolOf(n, m, labels).list();
}

/** A cycle context with a manual clock and a deterministic random source. */
export function cycleContext(opts: { random?: () => number; trace?: boolean; clock?: ManualClock } = {}): CycleContext {
  return {
    clock: opts.clock ?? new ManualClock(),
    random: opts.random ?? seededRandom(1),
    trace: opts.trace === true ? new TraceRecorder('req-1', 'm1', 0, 'default-flow') : undefined,
  };
}

export { seededRandom };

/** Builds a plugin instance from its definition the way the config loader does. */
export function instantiate<P>(
  def: PluginDefinition<P>,
  params: unknown = {},
  opts: { pool?: EndpointPool; clock?: ManualClock; lookup?: (name: string) => Plugin | undefined; name?: string } = {},
): Plugin {
  return def.create(def.parameters.parse(params), {
    name: opts.name ?? def.type,
    clock: opts.clock ?? new ManualClock(),
    pool: opts.pool ?? new EndpointPool(),
    lookup: opts.lookup ?? (() => undefined),
  });
}

/** Scores of `scorer` over `eps` as an array in endpoint order (missing = NaN), via `score()`. */
export function scoresOf(scorer: Scorer, req: SchedulingRequest, eps: readonly Endpoint[], ctx: CycleContext = cycleContext()): number[] {
  const map = scorer.score(ctx, req, eps);
  return eps.map((e) => map.get(e.id) ?? Number.NaN);
}
