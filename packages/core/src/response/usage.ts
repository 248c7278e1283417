import type { Usage } from '../scheduling/plugins.js';

/**
 * Token usage as model servers write it, per API kind:
 * - OpenAI chat/completions (vLLM, SGLang): `prompt_tokens`, `completion_tokens`,
 *   `prompt_tokens_details.cached_tokens`;
 * - OpenAI Responses: `input_tokens`, `output_tokens`, `input_tokens_details.cached_tokens`;
 * - Anthropic Messages: `input_tokens`, `output_tokens`, `cache_read_input_tokens`.
 */
interface WireUsage {
  readonly prompt_tokens?: unknown;
  readonly completion_tokens?: unknown;
  readonly prompt_tokens_details?: { readonly cached_tokens?: unknown } | null;
  readonly input_tokens?: unknown;
  readonly output_tokens?: unknown;
  readonly input_tokens_details?: { readonly cached_tokens?: unknown } | null;
  readonly cache_read_input_tokens?: unknown;
}

const count = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Builds a {@link Usage}; undefined when neither count is known. */
export function usageOf(prompt: number | undefined, completion: number | undefined, cached: number | undefined): Usage | undefined {
  if (prompt === undefined && completion === undefined) return undefined;
  const usage: { promptTokens: number; completionTokens: number; cachedTokens?: number } = { promptTokens: prompt ?? 0, completionTokens: completion ?? 0 };
  if (cached !== undefined) usage.cachedTokens = cached;
  return usage;
}

/**
 * Converts a wire `usage` object (any of the shapes above) to a core `Usage`; undefined when it
 * carries no token counts at all. A count must be a finite number ≥ 0; anything else counts as absent.
 * @category Response
 * @public
 */
export function usageFromWire(wire: unknown): Usage | undefined {
  if (!isObject(wire)) return undefined;
  const u = wire as WireUsage;
  const cached = count(u.prompt_tokens_details?.cached_tokens) ?? count(u.input_tokens_details?.cached_tokens) ?? count(u.cache_read_input_tokens);
  return usageOf(count(u.prompt_tokens) ?? count(u.input_tokens), count(u.completion_tokens) ?? count(u.output_tokens), cached);
}

/**
 * Combines usage reported in pieces (Anthropic streams send input tokens first and output tokens
 * last): each field keeps its largest value, since every piece reports running totals.
 * @category Response
 * @public
 */
export function mergeUsage(a: Usage | undefined, b: Usage | undefined): Usage | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const cached = Math.max(a.cachedTokens ?? -1, b.cachedTokens ?? -1);
  return usageOf(Math.max(a.promptTokens, b.promptTokens), Math.max(a.completionTokens, b.completionTokens), cached >= 0 ? cached : undefined);
}

/**
 * The usage of one parsed response document (a JSON body or one SSE event's data): OpenAI's
 * top-level `usage`, the Responses API's `response.usage` (in `response.completed` events) and
 * Anthropic's `message.usage` (in `message_start`), merged.
 * @category Response
 * @public
 */
export function readUsage(document: unknown): Usage | undefined {
  if (!isObject(document)) return undefined;
  let usage = usageFromWire(document.usage);
  if (isObject(document.response)) usage = mergeUsage(usage, usageFromWire(document.response.usage));
  if (isObject(document.message)) usage = mergeUsage(usage, usageFromWire(document.message.usage));
  return usage;
}
