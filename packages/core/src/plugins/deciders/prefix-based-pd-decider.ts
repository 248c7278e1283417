import { z } from 'zod';
import { definePlugin, type PluginDefinition } from '../../registry/types.js';
import { Attributes, prefixMatchAttribute } from '../../scheduling/attributes.js';
import type { StageDecider } from '../../scheduling/plugins.js';
import { requestPromptTokens } from '../request-tokens.js';

/**
 * Type name of the prefix-based P/D decider.
 * @public
 * @category Built-in plugins
 */
export const PREFIX_BASED_PD_DECIDER = 'prefix-based-pd-decider';

/**
 * Parameters of `prefix-based-pd-decider` (llm-d's names; unknown parameters are errors).
 * @public
 * @category Built-in plugins
 */
export const prefixBasedPdDeciderParameters = z.strictObject({
  /** Minimum uncached tokens that justify a remote prefill (0 disables disaggregation). */
  nonCachedTokens: z.number().int().min(0).default(0),
  /** Minimum prompt length for disaggregation (0 = no minimum). */
  promptTokens: z.number().int().min(0).default(0),
  /**
   * Read the match info of the producer with this instance name (e.g. a precise producer running
   * beside the approximate one) instead of the shared attribute; empty means the shared one.
   */
  prefixMatchInfoProducerName: z.string().optional(),
});

/**
 * Parsed parameters of `prefix-based-pd-decider`.
 * @public
 * @category Built-in plugins
 */
export type PrefixBasedPdDeciderParams = z.output<typeof prefixBasedPdDeciderParameters>;

/**
 * Options of {@link createPrefixBasedPdDecider}; defaults as in the config.
 * @public
 * @category Built-in plugins
 */
export interface PrefixBasedPdDeciderOptions {
  /** Minimum uncached tokens that justify a remote prefill (default 0 = never disaggregate). */
  readonly nonCachedTokens?: number | undefined;
  /** Minimum prompt length for disaggregation (default 0). */
  readonly promptTokens?: number | undefined;
  /** Producer whose match info to read (default: the shared attribute). */
  readonly prefixMatchInfoProducerName?: string | undefined;
}

/**
 * Creates a `prefix-based-pd-decider`, the StageDecider `disagg-profile-handler` asks whether to
 * run a remote prefill for the decode pick. With `in` the prompt's token count (the token
 * producer's, else the request parser's estimate), it returns false when `nonCachedTokens` is 0,
 * when `in < promptTokens`, when `in < nonCachedTokens`, when the decode endpoint has no prefix
 * match info, or when `in − cachedBlocks·blockSize < nonCachedTokens`; true otherwise. It reads
 * the unweighted `cachedBlocks`, so a prefix held in a slower tier still counts as cached.
 * @throws ZodError when an option is out of range (negative thresholds)
 * @public
 * @category Built-in plugins
 */
export function createPrefixBasedPdDecider(name: string, options: PrefixBasedPdDeciderOptions = {}): StageDecider {
  const p = prefixBasedPdDeciderParameters.parse(options);
  const key = prefixMatchAttribute(p.prefixMatchInfoProducerName);
  return {
    type: PREFIX_BASED_PD_DECIDER,
    name,
    consumes: [key.name],
    shouldRun: (_ctx, request, decodePick) => {
      if (p.nonCachedTokens === 0) return false;
      const input = requestPromptTokens(request);
      if (input < p.promptTokens || input < p.nonCachedTokens) return false;
      const match = request.attributes.get(key)?.get(decodePick.id);
      if (match === undefined) return false;
      return input - match.cachedBlocks * match.blockSizeTokens >= p.nonCachedTokens;
    },
  };
}

/**
 * Plugin definition of `prefix-based-pd-decider`: disaggregates prefill only when the decode
 * endpoint would have to compute enough uncached tokens (see {@link createPrefixBasedPdDecider}).
 * Core owns it because it only reads `Attributes.prefixMatch`; `@switchyard/prefix-index` supplies
 * the producers that write it.
 * @public
 * @category Built-in plugins
 */
export const prefixBasedPdDeciderPlugin: PluginDefinition<PrefixBasedPdDeciderParams> = definePlugin({
  type: PREFIX_BASED_PD_DECIDER,
  description: 'Prefill disaggregation when enough prompt tokens are uncached on the decode endpoint.',
  consumes: [Attributes.prefixMatch.name],
  parameters: prefixBasedPdDeciderParameters,
  create: (p, ctx) => createPrefixBasedPdDecider(ctx.name, p),
});
