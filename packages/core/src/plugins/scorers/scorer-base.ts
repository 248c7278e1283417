import type { Endpoint } from '../../endpoints/types.js';
import type { CycleContext, Scorer, ScoreMap } from '../../scheduling/plugins.js';
import type { SchedulingRequest } from '../../scheduling/request.js';

/**
 * The per-endpoint body of a built-in scorer: writes `endpoints[i]`'s score to `out[i]`.
 * @public
 * @category Built-in plugins
 */
export type ScoreIntoFn = (ctx: CycleContext, request: SchedulingRequest, endpoints: readonly Endpoint[], out: Float64Array) => void;

/**
 * Builds a {@link Scorer} from an array-filling function, deriving the map-returning `score` from
 * it so both paths always agree. Built-ins use it; custom scorers may too.
 * @public
 * @category Built-in plugins
 */
export function arrayScorer(type: string, name: string, scoreInto: ScoreIntoFn, extra: { readonly consumes?: readonly string[] } = {}): Scorer {
  return {
    type,
    name,
    ...(extra.consumes === undefined ? {} : { consumes: extra.consumes }),
    scoreInto,
    score(ctx, request, endpoints): ScoreMap {
      const out = new Float64Array(endpoints.length);
      scoreInto(ctx, request, endpoints, out);
      const map = new Map<string, number>();
      for (let i = 0; i < endpoints.length; i++) {
        const s = out[i] ?? Number.NaN;
        if (!Number.isNaN(s)) map.set((endpoints[i] as Endpoint).id, s);
      }
      return map;
    },
  };
}

/**
 * Min-max "lower is better" normalisation used by queue-like scorers: `(max − v)/(max − min)`,
 * and 1 for everyone when all values are equal. `values` is read through `get` to avoid copies.
 * @internal
 */
export function lowerIsBetter(endpoints: readonly Endpoint[], out: Float64Array, get: (e: Endpoint) => number): void {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < endpoints.length; i++) {
    const v = get(endpoints[i] as Endpoint);
    out[i] = v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const range = max - min;
  for (let i = 0; i < endpoints.length; i++) {
    out[i] = range === 0 ? 1 : (max - (out[i] as number)) / range;
  }
}
