import type { GenerationApi } from './openai-parse.js';

/**
 * OpenAI `usage` object as vLLM fills it with `--enable-prompt-tokens-details`.
 * @public
 * @category Server
 */
export interface OpenAiUsage {
  /** Prompt tokens. */
  readonly prompt_tokens: number;
  /** Prompt + completion tokens. */
  readonly total_tokens: number;
  /** Generated tokens. */
  readonly completion_tokens: number;
  /** Prompt tokens served from the prefix cache. */
  readonly prompt_tokens_details: { readonly cached_tokens: number };
}

/** Builds a usage object. @internal */
export function usageOf(prompt: number, completion: number, cached: number): OpenAiUsage {
  return { prompt_tokens: prompt, total_tokens: prompt + completion, completion_tokens: completion, prompt_tokens_details: { cached_tokens: cached } };
}

/** Fields shared by every response body of one request. @internal */
export interface ResponseHead {
  readonly id: string;
  readonly created: number;
  readonly model: string;
}

/** A complete (non-streaming) response body. @internal */
export function completionBody(api: GenerationApi, head: ResponseHead, text: string, finishReason: string, usage: OpenAiUsage): unknown {
  if (api === 'chat') {
    return {
      id: head.id,
      object: 'chat.completion',
      created: head.created,
      model: head.model,
      choices: [{ index: 0, message: { role: 'assistant', content: text, tool_calls: [] }, logprobs: null, finish_reason: finishReason, stop_reason: null }],
      usage,
    };
  }
  return {
    id: head.id,
    object: 'text_completion',
    created: head.created,
    model: head.model,
    choices: [{ index: 0, text, logprobs: null, finish_reason: finishReason, stop_reason: null }],
    usage,
  };
}

/**
 * One streamed chunk carrying `text` (and the finish reason on the last one). The first chat
 * chunk announces the assistant role, as vLLM does.
 * @internal
 */
export function chunkBody(api: GenerationApi, head: ResponseHead, text: string, finishReason: string | null, first: boolean, usage?: OpenAiUsage): unknown {
  const extra = usage === undefined ? {} : { usage };
  if (api === 'chat') {
    const delta = first ? { role: 'assistant', content: text } : finishReason !== null && text === '' ? {} : { content: text };
    return { id: head.id, object: 'chat.completion.chunk', created: head.created, model: head.model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }], ...extra };
  }
  return { id: head.id, object: 'text_completion', created: head.created, model: head.model, choices: [{ index: 0, text, logprobs: null, finish_reason: finishReason }], ...extra };
}

/** The final usage-only chunk of `stream_options.include_usage`. @internal */
export function usageChunk(api: GenerationApi, head: ResponseHead, usage: OpenAiUsage): unknown {
  return { id: head.id, object: api === 'chat' ? 'chat.completion.chunk' : 'text_completion', created: head.created, model: head.model, choices: [], usage };
}

/** One SSE frame. @internal */
export const sseFrame = (data: unknown): string => `data: ${JSON.stringify(data)}\n\n`;

/** The SSE terminator. @internal */
export const SSE_DONE = 'data: [DONE]\n\n';
