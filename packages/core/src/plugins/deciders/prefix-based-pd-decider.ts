import { z } from 'zod';
import { definePlugin } from '../../registry/types.js';
import { Attributes } from '../../scheduling/attributes.js';
import type { StageDecider } from '../../scheduling/plugins.js';
import { requestPromptTokens } from '../request-tokens.js';

/**
 * `prefix-based-pd-decider`: disaggregates prefill only when the decode endpoint would have to
 * compute enough uncached tokens. With `in` the prompt's token count, returns false when
 * `nonCachedTokens` is 0 (off), when `in < promptTokens`, when `in < nonCachedTokens`, when the
 * decode endpoint has no prefix match info, or when `in − cachedBlocks·blockSize <
 * nonCachedTokens`; true otherwise.
 * @public
 */
export const prefixBasedPdDeciderPlugin = definePlugin({
  type: 'prefix-based-pd-decider',
  description: 'Prefill disaggregation when enough prompt tokens are uncached on the decode endpoint.',
  consumes: [Attributes.prefixMatch.name],
  parameters: z.strictObject({
    /** Minimum uncached tokens that justify a remote prefill (0 disables disaggregation). */
    nonCachedTokens: z.number().int().min(0).default(0),
    /** Minimum prompt length for disaggregation. */
    promptTokens: z.number().int().min(0).default(0),
  }),
  create: (p, ctx): StageDecider => ({
    type: 'prefix-based-pd-decider',
    name: ctx.name,
    consumes: [Attributes.prefixMatch.name],
    shouldRun: (_c, request, decodePick) => {
      if (p.nonCachedTokens === 0) return false;
      const input = requestPromptTokens(request);
      if (input < p.promptTokens || input < p.nonCachedTokens) return false;
      const match = request.attributes.get(Attributes.prefixMatch)?.get(decodePick.id);
      if (match === undefined) return false;
      return input - match.cachedBlocks * match.blockSizeTokens >= p.nonCachedTokens;
    },
  }),
});
