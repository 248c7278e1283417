import { definePlugin } from '../../registry/types.js';
import type { Endpoint } from '../../endpoints/types.js';
import { arrayPicker, pickerParametersSchema, shuffledIndices } from './picker-base.js';

/**
 * `max-score-picker`: the highest total score wins, ties broken uniformly at random; with
 * `maxNumOfEndpoints` k > 1 the next best follow as fallbacks (shuffle, then a stable sort by
 * score, like llm-d). The k = 1 path is two allocation-free scans with one random draw among the
 * equal best scores (the same distribution).
 * @public
 * @category Built-in plugins
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
        // Two passes and a single random draw: one draw per decision instead of one per tie
        // keeps an idle fleet (all scores equal) as cheap as a busy one.
        let best = -Infinity;
        let ties = 0;
        for (let i = 0; i < n; i++) {
          const s = totals[i] as number;
          if (s > best) {
            best = s;
            ties = 1;
          } else if (s === best) ties++;
        }
        let skip = ties > 1 ? Math.floor(c.random() * ties) : 0;
        for (let i = 0; i < n; i++) {
          if (totals[i] !== best) continue;
          if (skip === 0) return [endpoints[i] as Endpoint];
          skip--;
        }
        return [endpoints[0] as Endpoint];
      }
      const order = shuffledIndices(n, c.random);
      order.sort((a, b) => (totals[b] as number) - (totals[a] as number));
      const k = Math.min(p.maxNumOfEndpoints, n);
      const out = new Array<Endpoint>(k);
      for (let i = 0; i < k; i++) out[i] = endpoints[order[i] as number] as Endpoint;
      return out;
    }),
});
