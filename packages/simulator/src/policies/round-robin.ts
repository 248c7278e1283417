import { arrayPicker, definePlugin, pickerParametersSchema, type Endpoint, type Picker } from '@switchyard/core';

/**
 * Type name of the round-robin picker. @public
 * @category Policies
 */
export const ROUND_ROBIN_PICKER = 'round-robin-picker';

/**
 * A picker that ignores scores and cycles through the candidates in pool order, the classic
 * baseline (what a plain L4/L7 load balancer does).
 * @public
 * @category Policies
 */
export function createRoundRobinPicker(name: string = ROUND_ROBIN_PICKER): Picker {
  let next = 0;
  return arrayPicker(ROUND_ROBIN_PICKER, name, (_c, _r, endpoints) => {
    if (endpoints.length === 0) return [];
    const e = endpoints[next % endpoints.length] as Endpoint;
    next = (next + 1) % 1_000_000_007;
    return [e];
  });
}

/**
 * Plugin definition of `round-robin-picker`, for config files. @public
 * @category Policies
 */
export const roundRobinPickerPlugin = definePlugin({
  type: ROUND_ROBIN_PICKER,
  description: 'Cycles through candidates in pool order, scores ignored.',
  parameters: pickerParametersSchema,
  create: (_p, ctx) => createRoundRobinPicker(ctx.name),
});
