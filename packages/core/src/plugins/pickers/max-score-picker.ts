import { definePlugin } from '../../registry/types.js';
import type { Endpoint } from '../../endpoints/types.js';
import { arrayPicker, pickerParametersSchema, shuffledIndices } from './picker-base.js';

/**
 * `max-score-picker`: the highest total score wins, ties broken uniformly at random; with
 * `maxNumOfEndpoints` k > 1 the next best follow as fallbacks (shuffle, then a stable sort by
 * score, like llm-d). The k = 1 path is a single allocation-free scan (reservoir sampling among
 * equal best scores, which has the same distribution).
 * @public
 */
export const maxScorePickerPlugin = definePlugin({
  type: 'max-score-picker',
  description: 'Highest score first, random among ties.',
  parameters: pickerParametersSchema,
  create: (p, ctx) =>
    arrayPicker('max-score-picker', ctx.name, (c, _r, endpoints, totals) => {
      const n = endpoints.length;
      if (n === 0) return [];
      if (p.maxNumOfEndpoints === 1) {
        let best = 0;
        let bestScore = totals[0] as number;
        let ties = 1;
        for (let i = 1; i < n; i++) {
          const s = totals[i] as number;
          if (s > bestScore) {
            bestScore = s;
            best = i;
            ties = 1;
          } else if (s === bestScore) {
            ties++;
            if (c.random() * ties < 1) best = i;
          }
        }
        return [endpoints[best] as Endpoint];
      }
      const order = shuffledIndices(n, c.random);
      order.sort((a, b) => (totals[b] as number) - (totals[a] as number));
      const k = Math.min(p.maxNumOfEndpoints, n);
      const out = new Array<Endpoint>(k);
      for (let i = 0; i < k; i++) out[i] = endpoints[order[i] as number] as Endpoint;
      return out;
    }),
});
