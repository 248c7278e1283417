import type { Endpoint } from '../endpoints/types.js';
import { Attributes } from '../scheduling/attributes.js';
import type { SchedulingRequest } from '../scheduling/request.js';
import { estimatePromptTokens } from '../request/estimate.js';

/**
 * Prompt tokens of the request as produced by a token producer (`promptTokenCount`, else the
 * summed length of `tokens`), or undefined when no producer ran.
 * @public
 */
export function producedPromptTokens(request: SchedulingRequest): number | undefined {
  const count = request.attributes.get(Attributes.promptTokenCount);
  if (count !== undefined) return count;
  const tokens = request.attributes.get(Attributes.tokens);
  if (tokens === undefined) return undefined;
  let n = 0;
  for (const t of tokens) n += t.length;
  return n;
}

/**
 * Prompt tokens of the request: produced ones when available, else the request parser's cheap
 * estimate (`estimatePromptTokens`, UTF-8 bytes / 4 like llm-d's `estimate` backend).
 * @public
 */
export function requestPromptTokens(request: SchedulingRequest): number {
  return producedPromptTokens(request) ?? estimatePromptTokens(request.request.prompt);
}

/**
 * Prompt tokens `endpoint` would have to prefill: produced prompt tokens minus the tokens its
 * cache already holds (`prefixMatch.cachedBlocks × blockSizeTokens`). 0 without a token producer.
 * @public
 */
export function uncachedPromptTokens(request: SchedulingRequest, endpoint: Endpoint, promptTokens: number | undefined): number {
  if (promptTokens === undefined) return 0;
  const match = request.attributes.get(Attributes.prefixMatch)?.get(endpoint.id);
  const cached = match === undefined ? 0 : match.cachedBlocks * match.blockSizeTokens;
  return Math.max(0, promptTokens - cached);
}
