import { z } from 'zod';
import { definePlugin } from '../../registry/types.js';
import type { Plugin, RequestLifecycle, ResponseBodyInfo } from '../../scheduling/plugins.js';
import { compileUsageExpression, usageCelValue, type UsageExpression } from './usage-expression.js';

/**
 * Type of llm-d's response-path reporter of CEL-computed request attributes. @public
 * @category Built-in plugins
 */
export const REQUEST_ATTRIBUTE_REPORTER = 'request-attribute-reporter';

/** Where the value goes when `key.namespace` is empty or absent (llm-d's default). */
const DEFAULT_NAMESPACE = 'envoy.lb';

/** A CEL expression parameter, compiled at load so that a bad one is a config error naming it. */
const celExpression = () =>
  z.string().transform((source, ctx): UsageExpression => {
    try {
      return compileUsageExpression(source);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
      return z.NEVER;
    }
  });

const attribute = z.strictObject({
  key: z.strictObject({
    namespace: z.string().default(''),
    name: z.string().min(1, 'key.name cannot be empty'),
  }),
  expression: z.string().min(1, 'expression cannot be empty').pipe(celExpression()),
  // llm-d skips an empty condition, as if absent.
  condition: z.string().optional().transform((c) => (c === undefined || c === '' ? undefined : c)).pipe(celExpression().optional()),
});

/**
 * Parameters of `request-attribute-reporter`, as llm-d reads them (required: llm-d fails without
 * any): `attributes`, exactly one entry of `key` {`namespace` (default `envoy.lb`), `name`},
 * `expression` (CEL, must give a number) and an optional `condition` (CEL, must give `true` for
 * the value to be reported). Both expressions are compiled at load.
 * @public
 * @category Built-in plugins
 */
export const requestAttributeReporterParameters = z.strictObject({
  attributes: z.array(attribute).length(1, 'attributes must contain exactly one entry'),
});

/**
 * The whole number an expression's result reports, as llm-d computes it: an `int` or a `double`
 * truncated toward zero; anything else (a string, a `uint`, a bool, a non-finite double) is a type
 * error and reports nothing. llm-d also drops a result of exactly -1 (its internal "type error"
 * marker) and 0.
 */
function reportedNumber(value: unknown): number | undefined {
  let n: number;
  if (typeof value === 'bigint') n = Number(value);
  else if (typeof value === 'number' && Number.isFinite(value)) n = Math.trunc(value);
  else return undefined;
  return n === 0 || n === -1 ? undefined : n;
}

/** The reporter: one attribute, evaluated when the response body ends. */
class RequestAttributeReporter implements Plugin, RequestLifecycle {
  readonly type = REQUEST_ATTRIBUTE_REPORTER;

  constructor(
    readonly name: string,
    private readonly namespace: string,
    private readonly key: string,
    private readonly expression: UsageExpression,
    private readonly condition: UsageExpression | undefined,
  ) {}

  onResponseBody(_request: unknown, info: ResponseBodyInfo): void {
    const metadata = info.dynamicMetadata;
    if (metadata === undefined) return;
    const value = this.evaluate(usageCelValue(info.usage));
    if (value === undefined) return;
    (metadata[this.namespace] ??= {})[this.key] = value;
  }

  /** The value to report for `usage`, or undefined (condition false or not a bool, errors, 0). */
  evaluate(usage: Readonly<Record<string, unknown>>): number | undefined {
    // Runtime errors (a missing key, a double added to an int) skip the report, as in llm-d,
    // where they are logged and the response goes on unchanged.
    try {
      if (this.condition !== undefined && this.condition.evaluate(usage) !== true) return undefined;
      return reportedNumber(this.expression.evaluate(usage));
    } catch {
      return undefined;
    }
  }
}

/**
 * `request-attribute-reporter` (llm-d): when a response body ends, evaluates a CEL expression over
 * the response's token usage (`usage.prompt_tokens`, `usage.completion_tokens`,
 * `usage.total_tokens`, `usage.prompt_token_details.cached_tokens`; see `usageCelValue`) and, when
 * the optional condition holds and the result is a non-zero number, writes it as Envoy dynamic
 * metadata `<namespace>.<name>` on the last response-body reply — e.g. a token cost for Envoy's
 * rate limiter. The CEL is evaluated by `@marcbachmann/cel-js`, a full CEL implementation.
 * @public
 * @category Built-in plugins
 */
export const requestAttributeReporterPlugin = definePlugin({
  type: REQUEST_ATTRIBUTE_REPORTER,
  description: 'Reports a CEL expression over the response usage as Envoy dynamic metadata (e.g. a rate-limit cost).',
  parameters: requestAttributeReporterParameters,
  create: (p, ctx): Plugin & RequestLifecycle => {
    const [a] = p.attributes as [z.output<typeof attribute>];
    return new RequestAttributeReporter(ctx.name, a.key.namespace === '' ? DEFAULT_NAMESPACE : a.key.namespace, a.key.name, a.expression, a.condition);
  },
});
