import { flattenContent, renderChatTemplate, type TemplateMessage } from '../tokens/chat-template.js';
import { tokenizeText } from '../tokens/text-tokens.js';
import { HttpError } from './http-util.js';

/**
 * Which OpenAI endpoint a generation request came through.
 * @public
 * @category Server
 */
export type GenerationApi = 'completions' | 'chat';

/**
 * A generation request after validation, with the token ids the engine will see.
 * @public
 * @category Server
 */
export interface ParsedGeneration {
  /** Endpoint. */
  readonly api: GenerationApi;
  /** Requested model (base model or LoRA adapter name). */
  readonly model: string;
  /** Prompt token ids (text through the 4-bytes-per-token tokenizer; chat through the template). */
  readonly promptTokens: Uint32Array;
  /** Output tokens to generate. */
  readonly maxTokens: number;
  /** SSE streaming. */
  readonly stream: boolean;
  /** `stream_options.include_usage`: a final usage chunk. */
  readonly includeUsage: boolean;
  /** `stream_options.continuous_usage_stats`: usage on every chunk. */
  readonly continuousUsage: boolean;
  /** vLLM `cache_salt`. */
  readonly cacheSalt: string | undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const bad = (message: string, param: string): HttpError => new HttpError(400, message, 'BadRequestError', param);

function tokenArray(v: readonly unknown[], param: string): Uint32Array {
  const out = new Uint32Array(v.length);
  v.forEach((t, i) => {
    if (typeof t !== 'number' || !Number.isInteger(t) || t < 0 || t > 0xffffffff) throw bad(`${param}[${i}]: expected a token id (integer in 0..2^32-1)`, param);
    out[i] = t;
  });
  return out;
}

/** Token ids of a completions `prompt` (a string, a one-element list, or token ids). */
function completionPrompt(prompt: unknown): Uint32Array {
  if (typeof prompt === 'string') return tokenizeText(prompt);
  if (Array.isArray(prompt)) {
    if (prompt.length === 1 && (typeof prompt[0] === 'string' || Array.isArray(prompt[0]))) return completionPrompt(prompt[0]);
    if (prompt.length > 0 && prompt.every((p) => typeof p === 'number')) return tokenArray(prompt, 'prompt');
    throw bad('prompt: the simulator serves one prompt per request (a string or a list of token ids)', 'prompt');
  }
  throw bad('prompt: expected a string or a list of token ids', 'prompt');
}

/** Template messages of a chat `messages` array. */
function chatMessages(messages: unknown): TemplateMessage[] {
  if (!Array.isArray(messages) || messages.length === 0) throw bad('messages: expected a non-empty array', 'messages');
  return messages.map((m, i) => {
    if (!isObject(m) || typeof m.role !== 'string') throw bad(`messages[${i}]: expected an object with a string role`, 'messages');
    return { role: m.role, content: flattenContent(m.content) };
  });
}

/**
 * Token ids of the prompt of a completions, chat, tokenize or render body (`prompt` or `messages`).
 * @throws HttpError 400 naming the bad field
 * @internal
 */
export function promptTokensOf(body: Record<string, unknown>): Uint32Array {
  if (body.messages !== undefined) {
    const addGenerationPrompt = body.add_generation_prompt !== false;
    return tokenizeText(renderChatTemplate(chatMessages(body.messages), addGenerationPrompt));
  }
  if (body.prompt !== undefined) return completionPrompt(body.prompt);
  throw bad('prompt: expected `prompt` or `messages`', 'prompt');
}

/**
 * Parses and validates a `/v1/completions` or `/v1/chat/completions` body.
 * @param defaultMaxTokens - used when the body sets no limit (vLLM: 16 for completions)
 * @throws HttpError 400 naming the bad field
 * @internal
 */
export function parseGeneration(api: GenerationApi, raw: Buffer, defaultMaxTokens: number): ParsedGeneration {
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw bad('body: invalid JSON', 'body');
  }
  if (!isObject(body)) throw bad('body: expected a JSON object', 'body');
  if (typeof body.model !== 'string' || body.model === '') throw bad('model: expected a non-empty string', 'model');
  if (api === 'chat' && body.messages === undefined) throw bad('messages: required', 'messages');
  if (api === 'completions' && body.prompt === undefined) throw bad('prompt: required', 'prompt');
  const promptTokens = promptTokensOf(body);
  const limit = api === 'chat' ? (body.max_completion_tokens ?? body.max_tokens) : body.max_tokens;
  let maxTokens = defaultMaxTokens;
  if (limit !== undefined && limit !== null) {
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) throw bad('max_tokens: expected a positive integer', 'max_tokens');
    maxTokens = limit;
  }
  if (body.n !== undefined && body.n !== 1) throw bad('n: the simulator generates one choice per request', 'n');
  const stream = body.stream === true;
  const so = isObject(body.stream_options) ? body.stream_options : undefined;
  if (so !== undefined && !stream) throw bad('stream_options: only allowed when stream is true', 'stream_options');
  const salt = body.cache_salt;
  if (salt !== undefined && (typeof salt !== 'string' || salt === '')) throw bad('cache_salt: expected a non-empty string', 'cache_salt');
  return {
    api,
    model: body.model,
    promptTokens,
    maxTokens,
    stream,
    includeUsage: so !== undefined && so.include_usage !== false,
    continuousUsage: so?.continuous_usage_stats === true,
    cacheSalt: salt,
  };
}

/**
 * Parses the body of `/tokenize` or a `/render` endpoint.
 * @throws HttpError 400 naming the bad field
 * @internal
 */
export function parsePromptBody(raw: Buffer): { model: string | undefined; tokens: Uint32Array } {
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw bad('body: invalid JSON', 'body');
  }
  if (!isObject(body)) throw bad('body: expected a JSON object', 'body');
  return { model: typeof body.model === 'string' ? body.model : undefined, tokens: promptTokensOf(body) };
}
