import { seededRandom } from '../clock/seeded-random.js';
import type { PluginRegistry } from '../registry/plugin-registry.js';
import type { PluginDefinition } from '../registry/types.js';
import type { Picker, ScoredEndpoint } from '../scheduling/plugins.js';
import { endpoints } from './pool.js';
import { cycleContext, instantiate } from './plugins.js';
import { schedulingRequest } from './requests.js';

/**
 * One scheduling cycle of a picker twin check: the candidates' total scores and the seed of the
 * random source both paths get.
 * @public
 */
export interface PickerTwinStep {
  /** One total score per candidate (the candidates are `endpoints(scores.length)`). */
  readonly scores: readonly number[];
  /** Seed of the cycle's random source, the same for both paths. */
  readonly seed: number;
}

/**
 * The picker definitions of `registry` whose instances implement both `pick` and the array form
 * `pickFrom`, the twins whose agreement {@link runPickerTwins} checks. A definition whose
 * parameters refuse `{ maxNumOfEndpoints: 2 }` is not a picker's, and is left out.
 * @param skip - definitions to leave out (a pack's test skips the types core's test covers)
 * @public
 */
export function twinPickerDefinitions(registry: PluginRegistry, skip: (def: PluginDefinition) => boolean = () => false): PluginDefinition[] {
  return registry.definitions().filter((def) => {
    if (skip(def) || !def.parameters.safeParse({ maxNumOfEndpoints: 2 }).success) return false;
    try {
      const plugin: Partial<Picker> = instantiate(def, { maxNumOfEndpoints: 2 });
      return typeof plugin.pick === 'function' && typeof plugin.pickFrom === 'function';
    } catch {
      return false;
    }
  });
}

/**
 * Runs the same cycles through two instances of a picker, one by `pick(scored)` and one by
 * `pickFrom(endpoints, totals)`, each cycle with a random source of the step's seed, and returns
 * the ids each path chose per cycle. The contract is that they are equal: a picker with state (a
 * cursor) must advance it the same way on both paths, and draw as many random numbers in the same
 * order.
 * @public
 */
export function runPickerTwins(def: PluginDefinition, parameters: Record<string, unknown>, steps: readonly PickerTwinStep[]): { readonly slow: string[][]; readonly fast: string[][] } {
  const slowPicker = instantiate(def, parameters) as Picker;
  const fastPicker = instantiate(def, parameters) as Picker;
  const request = schedulingRequest();
  const slow: string[][] = [];
  const fast: string[][] = [];
  for (const { scores, seed } of steps) {
    const eps = endpoints(scores.length);
    const scored: ScoredEndpoint[] = eps.map((endpoint, i) => ({ endpoint, score: scores[i] as number }));
    slow.push(slowPicker.pick(cycleContext({ random: seededRandom(seed) }), request, scored).map((e) => e.id));
    const picked = fastPicker.pickFrom?.(cycleContext({ random: seededRandom(seed) }), request, eps, Float64Array.from(scores)) ?? [];
    fast.push(picked.map((e) => e.id));
  }
  return { slow, fast };
}
