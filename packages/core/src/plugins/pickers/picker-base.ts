import { z } from 'zod';
import type { Endpoint } from '../../endpoints/types.js';
import type { CycleContext, Picker, ScoredEndpoint } from '../../scheduling/plugins.js';
import type { SchedulingRequest } from '../../scheduling/request.js';

/**
 * Parameters shared by the built-in pickers: `maxNumOfEndpoints` (default 1; values ≤ 0 mean 1)
 * is how many targets to return, primary first, the rest as ordered fallbacks.
 * @public
 * @category Built-in plugins
 */
export const pickerParametersSchema = z.strictObject({
  /** Targets to return (primary + fallbacks). */
  maxNumOfEndpoints: z
    .number()
    .int()
    .default(1)
    .transform((k) => (k <= 0 ? 1 : k)),
});

/**
 * Parsed picker parameters. @public
 * @category Built-in plugins
 */
export type PickerParameters = z.infer<typeof pickerParametersSchema>;

/**
 * The array body of a built-in picker.
 * @public
 * @category Built-in plugins
 */
export type PickFromFn = (ctx: CycleContext, request: SchedulingRequest, endpoints: readonly Endpoint[], totals: Float64Array) => readonly Endpoint[];

/**
 * Builds a {@link Picker} from its array form, deriving `pick(scored)` from it.
 * @public
 * @category Built-in plugins
 */
export function arrayPicker(type: string, name: string, pickFrom: PickFromFn): Picker {
  return {
    type,
    name,
    pickFrom,
    pick(ctx, request, scored: readonly ScoredEndpoint[]) {
      const endpoints = scored.map((s) => s.endpoint);
      const totals = Float64Array.from(scored, (s) => s.score);
      return pickFrom(ctx, request, endpoints, totals);
    },
  };
}

/**
 * Indices 0..n−1 in uniformly random order (Fisher–Yates with `random`).
 * @internal
 */
export function shuffledIndices(n: number, random: () => number): number[] {
  const idx = new Array<number>(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const t = idx[i] as number;
    idx[i] = idx[j] as number;
    idx[j] = t;
  }
  return idx;
}
