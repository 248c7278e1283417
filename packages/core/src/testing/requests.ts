/*
 * Request builders for tests: an InferenceRequest as a parser would produce it, without running
 * one, and the SchedulingRequest the picker would wrap around it.
 */
import type { InferenceRequest, PromptView } from '../request/types.js';
import { createSchedulingRequest, type SchedulingRequestInit } from '../scheduling/make-request.js';
import type { SchedulingRequest } from '../scheduling/request.js';

/**
 * Fields of a test request; anything left out gets the default listed on
 * {@link inferenceRequest}.
 * @public
 */
export type InferenceRequestSpec = Partial<InferenceRequest>;

/**
 * Builds an {@link InferenceRequest} for tests.
 *
 * Defaults: id `req-1`, model `m1`, a non-streaming chat completion (`/v1/chat/completions`) with
 * one user message `hello`, no headers. Passing `prompt` alone switches `api`/`path` to match it:
 * a `tokens` or `text` prompt becomes an `/v1/completions` request. `body` and `rawBody` follow
 * the model and prompt unless given.
 * @public
 */
export function inferenceRequest(over: InferenceRequestSpec = {}): InferenceRequest {
  const model = over.model ?? 'm1';
  const prompt: PromptView = over.prompt ?? { kind: 'chat', messages: [{ role: 'user', content: 'hello' }], toolsJson: undefined };
  const chat = prompt.kind === 'chat';
  const body = over.body ?? (chat ? { model, messages: [{ role: 'user', content: 'hello' }] } : { model, prompt });
  const raw = over.rawBody ?? new TextEncoder().encode(JSON.stringify(body));
  return {
    id: 'req-1',
    path: chat ? '/v1/chat/completions' : '/v1/completions',
    api: chat ? 'openai-chat-completions' : 'openai-completions',
    headers: {},
    model,
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

/**
 * Options of {@link schedulingRequest}: the scheduling fields (priority, fairness id, SLOs,
 * arrival time...) plus `request`, the fields of the wrapped {@link inferenceRequest}.
 * @public
 */
export interface SchedulingRequestSpec extends SchedulingRequestInit {
  /** Fields of the wrapped inference request. */
  readonly request?: InferenceRequestSpec;
}

/**
 * Builds a {@link SchedulingRequest} around {@link inferenceRequest}, the way the picker does
 * (`createSchedulingRequest`): fairness id `default-flow`, priority 0, arrival time 0 unless set.
 * @public
 */
export function schedulingRequest(init: SchedulingRequestSpec = {}): SchedulingRequest {
  return createSchedulingRequest(inferenceRequest(init.request), init);
}

/**
 * A token-id prompt (`{ kind: 'tokens' }`), one array per prompt.
 * @public
 */
export function tokensPrompt(...ids: number[][]): PromptView {
  return { kind: 'tokens', tokenIds: ids };
}
