import { tryDecodeJsonObject } from './fields.js';
import type { ParsedRequestBody, RequestParser, RequestParserInput } from './parser.js';

/**
 * Fallback parser (claims no paths): never rejects a body. When the body happens to be a JSON
 * object, a string `model` and a boolean `stream` are picked up (useful for routing and metrics
 * labels); the prompt is never interpreted, so prefix-aware scorers see nothing.
 * @public
 * @category Request parsing
 */
export const passthroughParser: RequestParser = {
  type: 'passthrough-parser',
  paths: [],
  parse(input: RequestParserInput): ParsedRequestBody {
    const body = tryDecodeJsonObject(input.rawBody);
    const model = body?.['model'];
    return {
      api: 'passthrough',
      model: typeof model === 'string' ? model : '',
      stream: body?.['stream'] === true,
      maxOutputTokens: undefined,
      prompt: { kind: 'none' },
      cacheSalt: undefined,
      body,
    };
  },
};
