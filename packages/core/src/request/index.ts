export type { ApiKind, ChatMessage, PromptView, InferenceRequest } from './types.js';
export type { RequestParser, RequestParserInput, ParsedRequestBody } from './parser.js';
export {
  parseRequest,
  selectParser,
  resolveRequestPath,
  BUILTIN_REQUEST_PARSERS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_REQUEST_PATH,
} from './parse-request.js';
export type { RequestInput, ParseOptions } from './parse-request.js';
export { openAIParser } from './openai-parser.js';
export { anthropicParser } from './anthropic-parser.js';
export { vllmHttpParser } from './vllm-parser.js';
export { sglangHttpParser } from './sglang-parser.js';
export { vertexAIParser } from './vertexai-parser.js';
export { vllmGrpcParser } from './vllm-grpc-parser.js';
export { passthroughParser } from './passthrough-parser.js';
export { requestParserPlugin, requestParserPlugins, isRequestParser } from './parser-plugins.js';
export {
  decodeJsonObject,
  tryDecodeJsonObject,
  isJsonObject,
  jsonTypeOf,
  readModel,
  readOptionalBoolean,
  readOptionalString,
  readOptionalCount,
  readOptionalArray,
  readFirstCount,
} from './fields.js';
export type { JsonObject } from './fields.js';
export { estimatePromptTokens, utf8ByteLength } from './estimate.js';
export { DEFAULT_MAX_JSON_DEPTH, exceedsJsonDepth } from './json-depth.js';
