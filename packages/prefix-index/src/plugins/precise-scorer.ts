import { Attributes, definePlugin, type Plugin, type PluginDefinition, type Scorer } from '@switchyard/core';
import type { PrefixPluginEnv } from './env.js';
import { preciseProducerParameters, type PreciseProducerParams } from './precise-parameters.js';
import { PRECISE_PREFIX_PRODUCER, PrecisePrefixProducer, preciseProducerDefinition } from './precise-producer.js';
import { createPrefixCacheScorer } from './prefix-cache-scorer.js';

/** Type name of llm-d's all-in-one precise prefix scorer. @public */
export const PRECISE_PREFIX_SCORER = 'precise-prefix-cache-scorer';

/**
 * `precise-prefix-cache-scorer` (llm-d, soft-deprecated all-in-one mode): the precise producer
 * and a `prefix-cache-scorer` (default weights) in one plugin, with the producer's parameters.
 * As in llm-d, when a `precise-prefix-cache-producer` instance already exists under its default
 * name, the scorer's own parameters are ignored and it scores that producer's match info. Its
 * legacy `indexerConfig.tokenizersPoolConfig` is accepted and not acted on: tokens come from a
 * `token-producer` (auto-created when none is listed), so the same text hashes the same way.
 * @public
 */
export function preciseScorerDefinition(env: PrefixPluginEnv): PluginDefinition<PreciseProducerParams> {
  const producerDef = preciseProducerDefinition(env);
  return definePlugin({
    type: PRECISE_PREFIX_SCORER,
    description: 'All-in-one precise prefix scoring: a precise-prefix-cache-producer and a prefix-cache-scorer in one plugin (llm-d legacy).',
    parameters: preciseProducerParameters,
    notActedOn: { 'indexerConfig.tokenizersPoolConfig': 'tokens come from a token-producer (auto-created when none is listed)' },
    consumes: [Attributes.tokens.name],
    create: (p, ctx): Plugin => {
      env.logger.warn(`${ctx.name}: precise-prefix-cache-scorer is deprecated in llm-d; use precise-prefix-cache-producer with prefix-cache-scorer`);
      const existing = ctx.lookup(PRECISE_PREFIX_PRODUCER);
      if (existing instanceof PrecisePrefixProducer) return { ...createPrefixCacheScorer(ctx.name, 0, 8192, existing.name), type: PRECISE_PREFIX_SCORER };
      const producer = producerDef.create(p, ctx);
      if (!(producer instanceof PrecisePrefixProducer)) throw new Error('precise-prefix-cache-producer definition returned another plugin');
      const scorer: Scorer = createPrefixCacheScorer(ctx.name, 0, 8192, ctx.name);
      return {
        type: PRECISE_PREFIX_SCORER,
        name: ctx.name,
        consumes: producer.consumes,
        produces: producer.produces,
        index: producer.index,
        produce: producer.produce.bind(producer),
        preRequest: producer.preRequest.bind(producer),
        close: producer.close.bind(producer),
        score: scorer.score.bind(scorer),
        ...(scorer.scoreInto === undefined ? {} : { scoreInto: scorer.scoreInto.bind(scorer) }),
      } as Plugin;
    },
  });
}
