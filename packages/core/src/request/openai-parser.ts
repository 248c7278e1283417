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
import { chatMessage, chatPrompt, flattenContent, promptFromInput } from './prompt-shapes.js';
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
  return raw.map((m: unknown, i) => {
    const path = `${key}[${i}]`;
    if (!isJsonObject(m)) throw fieldTypeError(path, 'an object', m);
    const role = readOptionalString(m, 'role', `${path}.role`) ?? '';
    const toolCalls = readOptionalArray(m, 'tool_calls', `${path}.tool_calls`);
    return chatMessage(role, flattenContent(m['content'], `${path}.content`), toolCalls === undefined ? undefined : JSON.stringify(toolCalls));
  });
}

function parseChat(body: JsonObject): ParsedRequestBody {
  const prompt = chatPrompt(readChatMessages(body), toolsJson(body));
  return common(body, 'openai-chat-completions', prompt, readFirstCount(body, ['max_completion_tokens', 'max_tokens']));
}

function parseCompletions(body: JsonObject): ParsedRequestBody {
  return common(body, 'openai-completions', promptFromInput(body['prompt'], 'prompt'), readFirstCount(body, ['max_tokens']));
}

function parseEmbeddings(body: JsonObject): ParsedRequestBody {
  // vLLM also accepts chat-style embedding requests (`messages` instead of `input`).
  const prompt: PromptView =
    body['input'] === undefined && body['messages'] !== undefined
      ? chatPrompt(readChatMessages(body), undefined)
      : promptFromInput(body['input'], 'input');
  return common(body, 'openai-embeddings', prompt, undefined);
}

/** Responses API: `instructions` becomes a system message; `input` is a string or a list of items. */
function parseResponses(body: JsonObject): ParsedRequestBody {
  const messages: ChatMessage[] = [];
  const instructions = readOptionalString(body, 'instructions');
  if (instructions !== undefined) messages.push(chatMessage('system', { text: instructions, media: [] }));
  const input = body['input'];
  if (typeof input === 'string') {
    messages.push(chatMessage('user', { text: input, media: [] }));
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
        messages.push(chatMessage(type, { text: JSON.stringify(item), media: [] }));
      }
    }
  } else if (input !== undefined && input !== null) {
    throw fieldTypeError('input', 'a string or an array of input items', input);
  }
  const prompt = chatPrompt(messages, toolsJson(body));
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
 * @category Request parsing
 */
export const openAIParser: RequestParser = {
  type: 'openai-parser',
  paths: Object.keys(OPENAI_ROUTES),
  parse: parseOpenAIBody,
};
