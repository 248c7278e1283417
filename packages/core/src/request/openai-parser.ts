import { SwitchyardError } from '../errors/switchyard-error.js';
import {
  decodeJsonObject,
  fieldTypeError,
  isJsonObject,
  readFirstCount,
  readModel,
  readOptionalArray,
  readOptionalBoolean,
  readOptionalString,
  type JsonObject,
} from './fields.js';
import type { ParsedRequestBody, RequestParser, RequestParserInput } from './parser.js';
import { chatMessage, flattenContent, promptFromInput } from './prompt-shapes.js';
import type { ApiKind, ChatMessage, PromptView } from './types.js';

/** Reads the fields every OpenAI-style body shares. */
function common(body: JsonObject, api: ApiKind, prompt: PromptView, maxOutputTokens: number | undefined): ParsedRequestBody {
  return {
    api,
    model: readModel(body),
    stream: readOptionalBoolean(body, 'stream') ?? false,
    maxOutputTokens,
    prompt,
    cacheSalt: readOptionalString(body, 'cache_salt'),
    body,
  };
}

function toolsJson(body: JsonObject): string | undefined {
  const tools = readOptionalArray(body, 'tools');
  return tools === undefined ? undefined : JSON.stringify(tools);
}

/**
 * Reads chat `messages` (required array of `{role, content, tool_calls?}`).
 * @throws SwitchyardError `BAD_REQUEST` naming the bad message field
 */
export function readChatMessages(body: JsonObject, key = 'messages'): ChatMessage[] {
  const raw = body[key];
  if (raw === undefined || raw === null) throw new SwitchyardError('BAD_REQUEST', `missing required field "${key}"`);
  if (!Array.isArray(raw)) throw fieldTypeError(key, 'an array of messages', raw);
  const out: ChatMessage[] = [];
  for (const [i, m] of raw.entries()) {
    const path = `${key}[${i}]`;
    if (!isJsonObject(m)) throw fieldTypeError(path, 'an object', m);
    const role = readOptionalString(m, 'role', `${path}.role`) ?? '';
    const toolCalls = readOptionalArray(m, 'tool_calls', `${path}.tool_calls`);
    out.push(chatMessage(role, flattenContent(m['content'], `${path}.content`), toolCalls === undefined ? undefined : JSON.stringify(toolCalls)));
  }
  return out;
}

function parseChat(body: JsonObject): ParsedRequestBody {
  const prompt: PromptView = { kind: 'chat', messages: readChatMessages(body), toolsJson: toolsJson(body) };
  return common(body, 'openai-chat-completions', prompt, readFirstCount(body, ['max_completion_tokens', 'max_tokens']));
}

function parseCompletions(body: JsonObject): ParsedRequestBody {
  return common(body, 'openai-completions', promptFromInput(body['prompt'], 'prompt'), readFirstCount(body, ['max_tokens']));
}

function parseEmbeddings(body: JsonObject): ParsedRequestBody {
  // vLLM also accepts chat-style embedding requests (`messages` instead of `input`).
  const prompt: PromptView =
    body['input'] === undefined && body['messages'] !== undefined
      ? { kind: 'chat', messages: readChatMessages(body), toolsJson: undefined }
      : promptFromInput(body['input'], 'input');
  return common(body, 'openai-embeddings', prompt, undefined);
}

/** Responses API: `instructions` becomes a system message; `input` is a string or a list of items. */
function parseResponses(body: JsonObject): ParsedRequestBody {
  const messages: ChatMessage[] = [];
  const instructions = readOptionalString(body, 'instructions');
  if (instructions !== undefined) messages.push({ role: 'system', content: instructions });
  const input = body['input'];
  if (typeof input === 'string') {
    messages.push({ role: 'user', content: input });
  } else if (Array.isArray(input)) {
    for (const [i, item] of input.entries()) {
      const path = `input[${i}]`;
      if (!isJsonObject(item)) throw fieldTypeError(path, 'an object', item);
      const role = item['role'];
      if (typeof role === 'string') {
        messages.push(chatMessage(role, flattenContent(item['content'], `${path}.content`)));
      } else {
        // Function calls, their outputs, reasoning items: keep them in the prefix as JSON.
        const type = typeof item['type'] === 'string' ? item['type'] : 'item';
        messages.push({ role: type, content: JSON.stringify(item) });
      }
    }
  } else if (input !== undefined && input !== null) {
    throw fieldTypeError('input', 'a string or an array of input items', input);
  }
  const prompt: PromptView = { kind: 'chat', messages, toolsJson: toolsJson(body) };
  return common(body, 'openai-responses', prompt, readFirstCount(body, ['max_output_tokens']));
}

/** OpenAI paths and their body parsers, in no particular order (selection is by suffix length). */
export const OPENAI_ROUTES: Readonly<Record<string, (body: JsonObject) => ParsedRequestBody>> = {
  'chat/completions': parseChat,
  completions: parseCompletions,
  embeddings: parseEmbeddings,
  responses: parseResponses,
};

/** Parses an OpenAI body for a claimed suffix (shared with the vLLM HTTP parser). */
export function parseOpenAIBody(input: RequestParserInput): ParsedRequestBody {
  const body = decodeJsonObject(input.rawBody);
  const route = OPENAI_ROUTES[input.matchedSuffix ?? ''];
  if (route !== undefined) return route(body);
  // Chosen as a fallback (no claim matched): treat as the legacy completions API, llm-d's default path.
  return parseCompletions(body);
}

/**
 * Parser for the OpenAI API: `chat/completions`, `completions`, `embeddings`, `responses`.
 * @public
 */
export const openAIParser: RequestParser = {
  type: 'openai-parser',
  paths: Object.keys(OPENAI_ROUTES),
  parse: parseOpenAIBody,
};
