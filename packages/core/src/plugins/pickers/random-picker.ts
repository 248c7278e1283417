import { definePlugin } from '../../registry/types.js';
import type { Endpoint } from '../../endpoints/types.js';
import { arrayPicker, pickerParametersSchema, shuffledIndices } from './picker-base.js';

/**
 * `random-picker`: ignores scores; returns `maxNumOfEndpoints` distinct candidates in uniformly
 * random order.
 * @public
 * @category Built-in plugins
 */
export const randomPickerPlugin = definePlugin({
  type: 'random-picker',
  description: 'Uniformly random candidates, scores ignored.',
  parameters: pickerParametersSchema,
  create: (p, ctx) =>
    arrayPicker('random-picker', ctx.name, (c, _r, endpoints) => {
      const n = endpoints.length;
      if (n === 0) return [];
      if (p.maxNumOfEndpoints === 1) return [endpoints[Math.floor(c.random() * n)] as Endpoint];
      const order = shuffledIndices(n, c.random);
      return order.slice(0, Math.min(p.maxNumOfEndpoints, n)).map((i) => endpoints[i] as Endpoint);
    }),
});
