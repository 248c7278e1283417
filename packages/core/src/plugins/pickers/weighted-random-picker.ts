import { definePlugin } from '../../registry/types.js';
import type { Endpoint } from '../../endpoints/types.js';
import { arrayPicker, pickerParametersSchema, shuffledIndices } from './picker-base.js';

/**
 * `weighted-random-picker`: picks in proportion to score (Efraimidis–Spirakis A-Res): each
 * candidate draws key `U^(1/score)` (U = 0 becomes 1e-10; score ≤ 0 → key 0) and the k largest
 * keys win. When every score is ≤ 0 it falls back to a uniform random pick.
 * @public
 * @category Built-in plugins
 */
export const weightedRandomPickerPlugin = definePlugin({
  type: 'weighted-random-picker',
  description: 'Random in proportion to score.',
  parameters: pickerParametersSchema,
  create: (p, ctx) =>
    arrayPicker('weighted-random-picker', ctx.name, (c, _r, endpoints, totals) => {
      const n = endpoints.length;
      if (n === 0) return [];
      const k = Math.min(p.maxNumOfEndpoints, n);
      const keys = new Float64Array(n);
      let positive = false;
      for (let i = 0; i < n; i++) {
        const s = totals[i] as number;
        if (s <= 0) continue;
        positive = true;
        let u = c.random();
        if (u === 0) u = 1e-10;
        keys[i] = Math.pow(u, 1 / s);
      }
      const order = shuffledIndices(n, c.random);
      if (positive) order.sort((a, b) => (keys[b] as number) - (keys[a] as number));
      const out = new Array<Endpoint>(k);
      for (let i = 0; i < k; i++) out[i] = endpoints[order[i] as number] as Endpoint;
      return out;
    }),
});
