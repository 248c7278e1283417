import {
  decodeJsonObject,
  fieldTypeError,
  isJsonObject,
  readModel,
  readOptionalCount,
  readOptionalBoolean,
  readOptionalString,
  type JsonObject,
} from './fields.js';
import { OPENAI_ROUTES, parseOpenAIBody } from './openai-parser.js';
import type { ParsedRequestBody, RequestParser, RequestParserInput } from './parser.js';
import { promptFromInput } from './prompt-shapes.js';
import type { PromptView } from './types.js';

const GENERATE_PATH = 'inference/v1/generate';

/**
 * vLLM's `/inference/v1/generate` (the disaggregated prefill/decode API): `token_ids` (or a
 * `prompt`), `sampling_params.max_tokens`, `stream`, `cache_salt`.
 */
function parseGenerate(body: JsonObject): ParsedRequestBody {
  let prompt: PromptView;
  const tokenIds = body['token_ids'];
  if (tokenIds !== undefined && tokenIds !== null) {
    if (!Array.isArray(tokenIds)) throw fieldTypeError('token_ids', 'an array of token ids', tokenIds);
    prompt = promptFromInput(tokenIds, 'token_ids');
    if (prompt.kind !== 'tokens' && tokenIds.length > 0) throw fieldTypeError('token_ids', 'an array of token ids', tokenIds);
  } else {
    prompt = promptFromInput(body['prompt'], 'prompt');
  }
  const sampling = body['sampling_params'];
  let maxOutputTokens: number | undefined;
  if (sampling !== undefined && sampling !== null) {
    if (!isJsonObject(sampling)) throw fieldTypeError('sampling_params', 'an object', sampling);
    maxOutputTokens = readOptionalCount(sampling, 'max_tokens', 'sampling_params.max_tokens');
  }
  return {
    api: 'vllm-generate',
    model: readModel(body),
    stream: readOptionalBoolean(body, 'stream') ?? false,
    maxOutputTokens,
    prompt,
    cacheSalt: readOptionalString(body, 'cache_salt'),
    body,
  };
}

/**
 * Parser for vLLM's HTTP server: `inference/v1/generate` natively, and every OpenAI path through
 * the OpenAI parser, so one parser covers a vLLM route serving both (as llm-d's `vllmhttp-parser`).
 * @public
 * @category Request parsing
 */
export const vllmHttpParser: RequestParser = {
  type: 'vllmhttp-parser',
  paths: [GENERATE_PATH, ...Object.keys(OPENAI_ROUTES)],
  parse(input: RequestParserInput): ParsedRequestBody {
    if (input.matchedSuffix === GENERATE_PATH) return parseGenerate(decodeJsonObject(input.rawBody));
    return parseOpenAIBody(input);
  },
};
