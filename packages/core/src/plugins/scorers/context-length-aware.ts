import { z } from 'zod';
import type { Endpoint } from '../../endpoints/types.js';
import { definePlugin } from '../../registry/types.js';
import type { Filter, Scorer } from '../../scheduling/plugins.js';
import { requestPromptTokens } from '../request-tokens.js';
import { arrayScorer } from './scorer-base.js';

/**
 * Label llm-d reads a pod's supported context length range from. @public
 * @category Built-in plugins
 */
export const CONTEXT_LENGTH_RANGE_LABEL = 'llm-d.ai/context-length-range';

/** Distinct label values whose parsed range is kept (beyond it they are parsed on each use). */
const MAX_CACHED_RANGES = 1024;

/** Scores of out-of-range pods stay below this, so any in-range pod beats them. */
const MAX_FALLBACK_SCORE = 0.3;

interface TokenRange {
  readonly min: number;
  readonly max: number;
}

/**
 * Parses `"min-max"` (two non-negative integers, min ≤ max); undefined when malformed.
 * @internal
 */
export function parseTokenRange(text: string): TokenRange | undefined {
  const parts = text.split('-');
  if (parts.length !== 2) return undefined;
  const [min, max] = parts.map((p) => {
    const t = p.trim();
    return /^\+?\d+$/.test(t) ? Number(t) : NaN;
  }) as [number, number];
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || min > max) return undefined;
  return { min, max };
}

/**
 * How well a pod's range suits a request of `length` tokens: in range, (0.3, 1], higher for
 * tighter ranges (`1/(1 + width/10000)`, weight 0.7) and more headroom (`(max − length)/width`,
 * weight 0.3), 1 for a zero-width range; out of range, below 0.3 and falling with the distance to
 * the nearest bound (`0.3/(1 + distance/1000)`).
 * @internal
 */
export function tokenRangeScore(length: number, range: TokenRange): number {
  if (length >= range.min && length <= range.max) {
    const width = range.max - range.min;
    if (width === 0) return 1;
    const widthScore = 1 / (1 + width / 10_000);
    const positionScore = (range.max - length) / width;
    return MAX_FALLBACK_SCORE + (0.7 * widthScore + 0.3 * positionScore) * (1 - MAX_FALLBACK_SCORE);
  }
  const distance = length > range.max ? length - range.max : range.min - length;
  return MAX_FALLBACK_SCORE / (1 + distance / 1000);
}

/**
 * `context-length-aware`: routes by prompt length for fleets whose pods serve different context
 * lengths. Each pod declares `"min-max"` tokens in the `label` label (default
 * `llm-d.ai/context-length-range`). In-range pods score in (0.3, 1], higher for tighter ranges and
 * more headroom; out-of-range pods below 0.3, by distance to the range; 0.5 for pods without the
 * label, 0 for a malformed one. With `enableFiltering` it is a filter too, keeping pods whose range
 * holds the prompt and pods without the label. The prompt length is the token producer's count when
 * one ran, else the estimate (UTF-8 bytes / 4).
 * @public
 * @category Built-in plugins
 */
export const contextLengthAwarePlugin = definePlugin({
  type: 'context-length-aware',
  description: 'Scores (and optionally filters) pods by the context length range in their labels.',
  parameters: z.strictObject({
    /** Pod label holding the `"min-max"` token range. */
    label: z.string().min(1).default(CONTEXT_LENGTH_RANGE_LABEL),
    /** Also filter out pods whose range does not hold the prompt. */
    enableFiltering: z.boolean().default(false),
  }),
  create: (p, ctx): Scorer | (Scorer & Filter) => {
    // Label values are parsed once each (a fleet has a few range classes), not per request and endpoint.
    const ranges = new Map<string, TokenRange | null>();
    const rangeOf = (e: Endpoint): TokenRange | null | undefined => {
      const text = e.labels[p.label];
      if (text === undefined) return undefined;
      let range = ranges.get(text);
      if (range === undefined) {
        range = parseTokenRange(text) ?? null;
        if (ranges.size < MAX_CACHED_RANGES) ranges.set(text, range);
      }
      return range;
    };
    const scorer = arrayScorer('context-length-aware', ctx.name, (_c, request, endpoints, out) => {
      const length = requestPromptTokens(request);
      for (let i = 0; i < endpoints.length; i++) {
        const range = rangeOf(endpoints[i] as Endpoint);
        out[i] = range === undefined ? 0.5 : range === null ? 0 : tokenRangeScore(length, range);
      }
    });
    if (!p.enableFiltering) return scorer;
    return {
      ...scorer,
      filter(_c, request, endpoints) {
        const length = requestPromptTokens(request);
        const keep = (e: Endpoint): boolean => {
          const range = rangeOf(e);
          return range === undefined || (range !== null && length >= range.min && length <= range.max);
        };
        return endpoints.every(keep) ? endpoints : endpoints.filter(keep);
      },
    };
  },
});
