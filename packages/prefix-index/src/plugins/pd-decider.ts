import { Attributes, definePlugin, type Endpoint, type PluginDefinition, type SchedulingRequest, type StageDecider } from '@switchyard/core';
import { z } from 'zod';
import { encodePromptBytes, pseudoTokenCount } from '../hashing/prompt-bytes.js';
import { matchInfoConsumes, readMatchInfo } from './attributes.js';

/** Type name of the prefix-based P/D decider. @public */
export const PREFIX_BASED_PD_DECIDER = 'prefix-based-pd-decider';

/**
 * Parameters of `prefix-based-pd-decider`.
 * @public
 */
export const pdDeciderParameters = z.looseObject({
  /** Uncached tokens that justify a remote prefill (0 = never disaggregate). */
  nonCachedTokens: z.number().int().min(0).default(0),
  /** Shortest prompt worth disaggregating. */
  promptTokens: z.number().int().min(0).default(0),
  /** Read the match info of this producer instead of the shared attribute. */
  prefixMatchInfoProducerName: z.string().optional(),
});

/**
 * Parsed parameters of `prefix-based-pd-decider`.
 * @public
 */
export type PdDeciderParams = z.output<typeof pdDeciderParameters>;

/** Prompt tokens: the token producer's count, else the 4-byte estimate. */
function promptTokensOf(request: SchedulingRequest): number {
  return request.attributes.get(Attributes.promptTokenCount) ?? pseudoTokenCount(encodePromptBytes(request.request.prompt));
}

/**
 * Options of {@link createPdDecider} (defaults as in the config).
 * @public
 */
export interface PdDeciderOptions {
  /** Uncached tokens that justify a remote prefill (0 = off). */
  readonly nonCachedTokens?: number;
  /** Shortest prompt worth disaggregating (0). */
  readonly promptTokens?: number;
  /** Producer whose match info to read. */
  readonly prefixMatchInfoProducerName?: string | undefined;
}

/**
 * Creates a `prefix-based-pd-decider` (a StageDecider for `disagg-profile-handler`): run a remote
 * prefill only when the decode endpoint would have to compute at least `nonCachedTokens` of the
 * prompt itself. False when `nonCachedTokens` is 0, when the prompt is shorter than
 * `promptTokens` or `nonCachedTokens`, when the decode endpoint has no match info, or when
 * `prompt − cachedBlocks·blockSize < nonCachedTokens`.
 * @public
 */
export function createPdDecider(name: string, options: PdDeciderOptions = {}): StageDecider {
  const p = pdDeciderParameters.parse(options);
  return {
    type: PREFIX_BASED_PD_DECIDER,
    name,
    consumes: matchInfoConsumes(p.prefixMatchInfoProducerName),
    shouldRun(_ctx, request, decodePick: Endpoint): boolean {
      if (p.nonCachedTokens === 0) return false;
      const input = promptTokensOf(request);
      if (input < p.promptTokens || input < p.nonCachedTokens) return false;
      const m = readMatchInfo(request, p.prefixMatchInfoProducerName)?.get(decodePick.id);
      if (m === undefined) return false;
      return input - m.cachedBlocks * m.blockSizeTokens >= p.nonCachedTokens;
    },
  };
}

/**
 * Plugin definition of `prefix-based-pd-decider`.
 * @public
 */
export const pdDeciderDefinition: PluginDefinition<PdDeciderParams> = definePlugin({
  type: PREFIX_BASED_PD_DECIDER,
  description: 'Disaggregates prefill when enough of the prompt is uncached on the decode endpoint.',
  parameters: pdDeciderParameters,
  consumes: matchInfoConsumes(undefined),
  create: (p, ctx) => createPdDecider(ctx.name, p),
});
