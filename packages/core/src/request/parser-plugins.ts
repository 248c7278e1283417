import { z } from 'zod';
import { definePlugin, type PluginDefinition } from '../registry/types.js';
import type { Plugin } from '../scheduling/plugins.js';
import { anthropicParser } from './anthropic-parser.js';
import { openAIParser } from './openai-parser.js';
import type { ParsedRequestBody, RequestParser, RequestParserInput } from './parser.js';
import { passthroughParser } from './passthrough-parser.js';
import { sglangHttpParser } from './sglang-parser.js';
import { vertexAIParser } from './vertexai-parser.js';
import { vllmHttpParser } from './vllm-parser.js';

/** A request parser listed in a config's `plugins`: the parser under an instance name. */
class ParserInstance implements Plugin, RequestParser {
  readonly type: string;
  readonly paths: readonly string[];
  readonly #parser: RequestParser;

  constructor(
    parser: RequestParser,
    readonly name: string,
  ) {
    this.type = parser.type;
    this.paths = parser.paths;
    this.#parser = parser;
  }

  parse(input: RequestParserInput): ParsedRequestBody {
    return this.#parser.parse(input);
  }
}

/**
 * Plugin definition of a request parser, so a config can list it in `plugins` and name it in
 * `requestHandler.parsers`, as llm-d's do.
 * @public
 * @category Request parsing
 */
export function requestParserPlugin(parser: RequestParser, description: string, notActedOn?: Readonly<Record<string, string>>): PluginDefinition<Record<string, never>> {
  return definePlugin({
    type: parser.type,
    description,
    ...(notActedOn === undefined ? {} : { notActedOn }),
    parameters: z.strictObject({}),
    create: (_p, ctx): ParserInstance => new ParserInstance(parser, ctx.name),
  });
}

/**
 * True when a configured plugin is a request parser (what `requestHandler.parsers` may name).
 * @public
 * @category Request parsing
 */
export function isRequestParser(plugin: Plugin): plugin is Plugin & RequestParser {
  const p = plugin as Partial<RequestParser>;
  return Array.isArray(p.paths) && typeof p.parse === 'function';
}

/**
 * The built-in parsers as plugin types: `openai-parser`, `anthropic-parser`, `vllmhttp-parser`,
 * `sglanghttp-parser`, `vertexai-parser`, `passthrough-parser` (llm-d's names).
 * @public
 * @category Request parsing
 */
export const requestParserPlugins: readonly PluginDefinition<Record<string, never>>[] = [
  // llm-d-router's integration-test configs set `propagatePriority` (a parameter of an older
  // openai-parser): priority comes from InferenceObjectives here, so it loads and does nothing.
  requestParserPlugin(openAIParser, 'OpenAI API bodies (completions, chat completions and the other OpenAI routes).', {
    propagatePriority: 'priority comes from the InferenceObjective named by x-llm-d-inference-objective, not from the parser',
  }),
  requestParserPlugin(anthropicParser, 'Anthropic Messages bodies.'),
  requestParserPlugin(vllmHttpParser, "vLLM's HTTP server: the OpenAI routes plus inference/v1/generate (token ids)."),
  requestParserPlugin(sglangHttpParser, "SGLang's native generate API (input_ids); usage read from meta_info."),
  requestParserPlugin(vertexAIParser, "Vertex AI's gRPC PredictionService: the HttpBody's OpenAI JSON (ChatCompletions, RawPredict, StreamRawPredict)."),
  requestParserPlugin(passthroughParser, 'Fallback: any body, read for model and stream only.'),
];
