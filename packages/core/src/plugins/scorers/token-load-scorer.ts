import { z } from 'zod';
import { NotActedOnReasons } from '../not-acted-on-reasons.js';
import { definePlugin } from '../../registry/types.js';
import { Attributes } from '../../scheduling/attributes.js';
import { producedPromptTokens, uncachedPromptTokens } from '../request-tokens.js';
import { arrayScorer } from './scorer-base.js';

const CONSUMES = [Attributes.inFlightLoad.name] as const;

/**
 * `token-load-scorer`: prefers endpoints with few tokens in flight. t = in-flight tokens (from the
 * `inflight-load` attribute) + this request's uncached prompt tokens on that endpoint; t ≤ 0 → 1,
 * else `1 − min(t, T)/T` with T = `queueThresholdTokens`. Without the attribute every endpoint
 * scores 1.
 * @public
 * @category Built-in plugins
 */
export const tokenLoadScorerPlugin = definePlugin({
  type: 'token-load-scorer',
  description: 'In-flight plus uncached prompt tokens against a threshold.',
  consumes: CONSUMES,
  notActedOn: { inFlightLoadProducerName: NotActedOnReasons.inFlightLoadProducer },
  parameters: z.strictObject({
    /** Token load at which the score reaches 0. */
    queueThresholdTokens: z.number().int().positive().default(4_194_304),
  }),
  create: (p, ctx) =>
    arrayScorer('token-load-scorer', ctx.name, (_c, request, endpoints, out) => {
      const load = request.attributes.get(Attributes.inFlightLoad);
      if (load === undefined) {
        out.fill(1, 0, endpoints.length);
        return;
      }
      const t = p.queueThresholdTokens;
      const prompt = producedPromptTokens(request);
      for (let i = 0; i < endpoints.length; i++) {
        const e = endpoints[i];
        if (e === undefined) continue;
        const tokens = load.tokens(e) + uncachedPromptTokens(request, e, prompt);
        out[i] = tokens <= 0 ? 1 : 1 - Math.min(tokens, t) / t;
      }
    }, { consumes: CONSUMES }),
});
