import {
  decodeJsonObject,
  fieldTypeError,
  readFirstCount,
  readModel,
  readOptionalArray,
  readOptionalBoolean,
  readOptionalString,
  type JsonObject,
} from './fields.js';
import { readChatMessages } from './openai-parser.js';
import type { ParsedRequestBody, RequestParser, RequestParserInput } from './parser.js';
import { chatMessage, chatPrompt, flattenContent } from './prompt-shapes.js';
import type { ChatMessage } from './types.js';

/** `system` is a string or an array of text blocks; it becomes the first message. */
function systemMessage(body: JsonObject): ChatMessage | undefined {
  const system = body['system'];
  if (system === undefined || system === null) return undefined;
  if (typeof system !== 'string' && !Array.isArray(system)) throw fieldTypeError('system', 'a string or an array of content blocks', system);
  return chatMessage('system', flattenContent(system, 'system'));
}

function parseAnthropic(body: JsonObject, countTokens: boolean): ParsedRequestBody {
  const system = systemMessage(body);
  const messages = readChatMessages(body);
  const tools = readOptionalArray(body, 'tools');
  const prompt = chatPrompt(system === undefined ? messages : Array.of(system, ...messages), tools === undefined ? undefined : JSON.stringify(tools));
  return {
    api: countTokens ? 'anthropic-count-tokens' : 'anthropic-messages',
    model: readModel(body),
    stream: readOptionalBoolean(body, 'stream') ?? false,
    maxOutputTokens: countTokens ? undefined : readFirstCount(body, ['max_tokens']),
    prompt,
    cacheSalt: readOptionalString(body, 'cache_salt'),
    body,
  };
}

/**
 * Parser for the Anthropic Messages API: `messages` and `messages/count_tokens`. Content blocks
 * of type `text` are joined; `image`/`document` are recorded as media; `tool_use`,
 * `tool_result` and `thinking` blocks contribute their JSON.
 * @public
 * @category Request parsing
 */
export const anthropicParser: RequestParser = {
  type: 'anthropic-parser',
  paths: ['messages', 'messages/count_tokens'],
  parse(input: RequestParserInput): ParsedRequestBody {
    return parseAnthropic(decodeJsonObject(input.rawBody), input.matchedSuffix === 'messages/count_tokens');
  },
};
