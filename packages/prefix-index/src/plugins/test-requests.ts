/*
 * Test helper (not exported from the package): requests, pools and results the way the picker
 * builds them.
 */
import {
  createSchedulingRequest,
  EndpointPool,
  ManualClock,
  type CycleContext,
  type Endpoint,
  type EndpointMetrics,
  type InferenceRequest,
  type PromptView,
  type SchedulingRequest,
  type SchedulingResult,
} from '@switchyard/core';

/** An inference request with `prompt`. */
export function inferenceRequest(prompt: PromptView, over: Partial<InferenceRequest> = {}): InferenceRequest {
  const body = { model: 'm', prompt };
  const raw = new TextEncoder().encode(JSON.stringify(body));
  return {
    id: 'r',
    path: '/v1/completions',
    api: prompt.kind === 'chat' ? 'openai-chat-completions' : 'openai-completions',
    headers: {},
    model: 'm',
    stream: false,
    maxOutputTokens: undefined,
    prompt,
    cacheSalt: undefined,
    byteSize: raw.byteLength,
    body,
    rawBody: raw,
    ...over,
  };
}

/** A scheduling request around {@link inferenceRequest}. */
export function schedReq(prompt: PromptView, over: Partial<InferenceRequest> = {}): SchedulingRequest {
  return createSchedulingRequest(inferenceRequest(prompt, over));
}

/** Token-id prompt. */
export const tokensPrompt = (...ids: number[][]): PromptView => ({ kind: 'tokens', tokenIds: ids });

/** Full metrics with defaults. */
export function metrics(over: Partial<EndpointMetrics> = {}): EndpointMetrics {
  return {
    waitingQueueSize: 0,
    runningRequestsSize: 0,
    kvCacheUsagePercent: 0,
    activeModels: [],
    waitingModels: [],
    maxActiveModels: 0,
    cacheBlockSize: 0,
    cacheNumBlocks: 0,
    updatedAt: 0,
    ...over,
  };
}

/** A pool with endpoints named `ids` on 10.0.0.x:8000. */
export function poolOf(...ids: string[]): EndpointPool {
  const pool = new EndpointPool();
  ids.forEach((id, i) => pool.add({ id, address: `10.0.0.${i + 1}:8000` }));
  return pool;
}

/** A cycle context with a manual clock. */
export function ctx(random: () => number = () => 0.5): CycleContext {
  return { clock: new ManualClock(), random, trace: undefined };
}

/** A scheduling result: `primary` under profile `default`, optional `prefill` profile target. */
export function resultOf(primary: Endpoint, prefill?: Endpoint): SchedulingResult {
  const profileResults = new Map<string, { targets: readonly Endpoint[]; scored: [] } | null>([['default', { targets: [primary], scored: [] }]]);
  if (prefill !== undefined) profileResults.set('prefill', { targets: [prefill], scored: [] });
  return { profileResults, primaryProfileName: 'default' };
}
