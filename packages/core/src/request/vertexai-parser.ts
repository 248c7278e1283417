import { SwitchyardError, isSwitchyardError } from '../errors/switchyard-error.js';
import { grpcMessage, wireFields } from './grpc-frame.js';
import { parseOpenAIBody } from './openai-parser.js';
import type { ParsedRequestBody, RequestParser, RequestParserInput } from './parser.js';
import { NO_PROMPT } from './prompt-shapes.js';

/** The Vertex AI `PredictionService` methods and the OpenAI route each one's payload is read as. */
const METHODS: readonly { readonly suffix: string; readonly message: string; readonly route: string }[] = [
  { suffix: 'PredictionService/ChatCompletions', message: 'ChatCompletionsRequest', route: 'chat/completions' },
  { suffix: 'PredictionService/StreamRawPredict', message: 'StreamRawPredictRequest', route: 'responses' },
  { suffix: 'PredictionService/RawPredict', message: 'RawPredictRequest', route: 'responses' },
];

/** Field numbers: each request message has `http_body = 2`; `google.api.HttpBody` has `data = 2`. */
const HTTP_BODY_FIELD = 2;
const DATA_FIELD = 2;
const LENGTH_DELIMITED = 2;

/**
 * The `http_body.data` of a Vertex request message, with protobuf's merge rule for a repeated
 * singular message (later occurrences override the fields they set); undefined when the message
 * has no `http_body`.
 */
function httpBodyData(message: Uint8Array, name: string): Uint8Array | undefined {
  let present = false;
  let data: Uint8Array = new Uint8Array(0);
  for (const f of wireFields(message, `unmarshaling ${name}`, 'body')) {
    if (f.number !== HTTP_BODY_FIELD || f.wireType !== LENGTH_DELIMITED || f.bytes === undefined) continue;
    present = true;
    for (const inner of wireFields(f.bytes, `unmarshaling ${name}`, 'http_body')) {
      if (inner.number === DATA_FIELD && inner.wireType === LENGTH_DELIMITED && inner.bytes !== undefined) data = inner.bytes;
    }
  }
  return present ? data : undefined;
}

/** What llm-d's parser returns for another method: forwarded untouched, nothing read. */
function skipped(): ParsedRequestBody {
  return { api: 'passthrough', model: '', stream: false, maxOutputTokens: undefined, prompt: NO_PROMPT, cacheSalt: undefined, body: undefined };
}

/**
 * Parser for Vertex AI's gRPC `PredictionService` (llm-d's `vertexai-parser`): unwraps the
 * gRPC frame and the request message's `google.api.HttpBody`, and reads its JSON with the OpenAI
 * parser as `chat/completions` (ChatCompletions) or `responses` (StreamRawPredict, RawPredict).
 * The body stays the gRPC frame as received (no model-name rewrite inside protobuf, as in llm-d);
 * the response reader takes usage from the JSON inside the response's `HttpBody`.
 * @public
 * @category Request parsing
 */
export const vertexAIParser: RequestParser = {
  type: 'vertexai-parser',
  paths: METHODS.map((m) => m.suffix),
  parse(input: RequestParserInput): ParsedRequestBody {
    const method = METHODS.find((m) => input.path.endsWith(m.suffix));
    if (method === undefined) return skipped();
    const message = grpcMessage(input.rawBody);
    const data = httpBodyData(message, method.message);
    if (data === undefined) throw new SwitchyardError('BAD_REQUEST', `${method.message} has no HttpBody`, { field: 'http_body' });
    let parsed: ParsedRequestBody;
    try {
      parsed = parseOpenAIBody({ path: `/${method.route}`, matchedSuffix: method.route, headers: input.headers, rawBody: data });
    } catch (err) {
      if (!isSwitchyardError(err)) throw err;
      throw new SwitchyardError('BAD_REQUEST', `parsing ${method.message}: ${err.message}`, { field: err.field ?? 'http_body.data', cause: err });
    }
    return { ...parsed, body: undefined };
  },
};
