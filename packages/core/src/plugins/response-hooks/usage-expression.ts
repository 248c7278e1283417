import { Environment, type ParseResult } from '@marcbachmann/cel-js';
import type { Usage } from '../../scheduling/plugins.js';

/**
 * A compiled CEL expression over a response's `usage`.
 * @public
 * @category Built-in plugins
 */
export interface UsageExpression {
  /** The expression as configured. */
  readonly source: string;
  /**
   * Evaluates the expression with `usage` bound to `usage` (see {@link usageCelValue}). Returns the
   * CEL value: `bigint` for `int`, `number` for `double`, `boolean`, `string`, …; throws on a
   * runtime error (a missing key, an operator with no overload for the operands' types).
   */
  evaluate(usage: Readonly<Record<string, unknown>>): unknown;
}

/**
 * One environment for every expression: llm-d declares a single variable, `usage`, typed
 * `google.protobuf.Struct`: a map from string to dynamically typed values.
 */
const ENVIRONMENT = new Environment().registerVariable('usage', 'map<string, dyn>');

/** The first line of a cel-js error (the rest draws the source with a caret under the position). */
function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n', 1)[0] ?? text;
}

/**
 * Parses and type-checks a CEL expression in llm-d's request-attribute-reporter environment (the
 * one variable `usage`). Throws an `Error` naming the problem when the expression does not parse,
 * names an undeclared variable or cannot type-check (`1 + "a"`): llm-d fails plugin creation in
 * the same cases, since cel-go compiles the expression when the plugin is built.
 * @public
 * @category Built-in plugins
 */
export function compileUsageExpression(source: string): UsageExpression {
  let program: ParseResult;
  try {
    program = ENVIRONMENT.parse(source);
  } catch (error) {
    throw new Error(`not a CEL expression: ${firstLine(error)}`);
  }
  const checked = program.check();
  if (!checked.valid) throw new Error(`CEL type error: ${firstLine(checked.error)}`);
  return { source, evaluate: (usage) => program({ usage }) as unknown };
}

/**
 * The `usage` value llm-d hands to the expressions: its Go `Usage` struct marshalled to JSON and
 * read back as a `google.protobuf.Struct`. So every count is a CEL `double`; `prompt_tokens`,
 * `completion_tokens` and `total_tokens` are always present (0 when the model server reported
 * none); the cached-token count appears, under `prompt_token_details.cached_tokens` (llm-d's JSON
 * tag), only when the server reported it. Switchyard also offers the same object under
 * `prompt_tokens_details`, the spelling OpenAI responses use. `total_tokens` is prompt plus
 * completion tokens (OpenAI-compatible servers report exactly that sum).
 * @public
 * @category Built-in plugins
 */
export function usageCelValue(usage: Usage | undefined): Record<string, unknown> {
  const prompt = usage?.promptTokens ?? 0;
  const completion = usage?.completionTokens ?? 0;
  const value: Record<string, unknown> = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
  if (usage?.cachedTokens !== undefined) {
    const details = { cached_tokens: usage.cachedTokens };
    value.prompt_token_details = details;
    value.prompt_tokens_details = details;
  }
  return value;
}
