import type { JsonObject } from './fields.js';
import type { ApiKind, PromptView } from './types.js';

/**
 * What a {@link RequestParser} is given: the resolved path, the claimed suffix it was chosen by,
 * the normalised headers and the raw body bytes (never empty: bodyless requests are not parsed).
 * @public
 * @category Request parsing
 */
export interface RequestParserInput {
  /** Request path with the query stripped. */
  readonly path: string;
  /** The claimed suffix that selected this parser, or undefined when it was chosen as the fallback. */
  readonly matchedSuffix: string | undefined;
  /** Lower-case request headers. */
  readonly headers: Readonly<Record<string, string>>;
  /** Raw body bytes. */
  readonly rawBody: Uint8Array;
}

/**
 * The body-derived part of an {@link InferenceRequest}, as a parser returns it.
 * @public
 * @category Request parsing
 */
export interface ParsedRequestBody {
  /** API shape of the body. */
  readonly api: ApiKind;
  /** Model named by the body (`''` when the API has none). */
  readonly model: string;
  /** Whether a streamed response was asked for. */
  readonly stream: boolean;
  /** Max output tokens asked for, when given. */
  readonly maxOutputTokens: number | undefined;
  /** The prompt. */
  readonly prompt: PromptView;
  /** vLLM `cache_salt`, when given. */
  readonly cacheSalt: string | undefined;
  /** The decoded JSON body, when the body is a JSON object. */
  readonly body: JsonObject | undefined;
}

/**
 * Turns the body of one family of APIs into a {@link ParsedRequestBody}. `parseRequest` picks the
 * parser whose claimed path suffix is the longest one the path ends with (plain `endsWith`, no
 * segment boundary, ties go to the earlier parser); the first parser that claims no paths is the
 * fallback for unclaimed paths. Compose your own list from {@link BUILTIN_REQUEST_PARSERS} and
 * custom parsers.
 * @example
 * ```ts
 * const ollama: RequestParser = {
 *   type: 'ollama-parser',
 *   paths: ['api/generate'],
 *   parse: ({ rawBody }) => { const body = decodeJsonObject(rawBody); ... },
 * };
 * parseRequest(input, { parsers: [ollama, ...BUILTIN_REQUEST_PARSERS] });
 * ```
 * @public
 * @category Request parsing
 */
export interface RequestParser {
  /** Plugin type name, e.g. `openai-parser` (matches the llm-d plugin type where one exists). */
  readonly type: string;
  /** Path suffixes this parser claims, without a leading slash. Empty = fallback parser. */
  readonly paths: readonly string[];
  /**
   * Parses the body.
   * @throws SwitchyardError `BAD_REQUEST` naming the offending field; any other error is wrapped
   */
  parse(input: RequestParserInput): ParsedRequestBody;
}
