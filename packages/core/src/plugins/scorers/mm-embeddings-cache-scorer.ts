import { z } from 'zod';
import { definePlugin } from '../../registry/types.js';
import { encoderCacheAttribute } from '../producers/mm-embeddings-cache-producer.js';
import { arrayScorer } from './scorer-base.js';

/**
 * `mm-embeddings-cache-scorer` (llm-d): the fraction of the request's multimodal items already
 * in each candidate's encoder cache (from `mm-embeddings-cache-producer`, or the producer named
 * by `producerName`); 0 without data.
 * @public
 * @category Built-in plugins
 */
export const mmEmbeddingsCacheScorerPlugin = definePlugin({
  type: 'mm-embeddings-cache-scorer',
  description: 'Fraction of the request\'s media items already encoded by the candidate.',
  parameters: z.strictObject({ producerName: z.string().default('') }).prefault({}),
  consumes: [encoderCacheAttribute().name],
  create: (p, ctx) => {
    const key = encoderCacheAttribute(p.producerName);
    return arrayScorer(
      'mm-embeddings-cache-scorer',
      ctx.name,
      (_c, request, endpoints, out) => {
        const info = request.attributes.get(key);
        for (let i = 0; i < endpoints.length; i++) {
          const m = info?.get(endpoints[i]?.id ?? '');
          out[i] = m === undefined || m.total === 0 ? 0 : m.matched / m.total;
        }
      },
      { consumes: [key.name] },
    );
  },
});
