/*
 * Plugin drivers for tests: create a plugin from its definition as the config loader would, and
 * run one cycle of it with a manual clock and a seeded random source.
 */
import type { Registry } from 'prom-client';
import { ManualClock } from '../clock/manual-clock.js';
import { seededRandom } from '../clock/seeded-random.js';
import { EndpointPool } from '../endpoints/pool.js';
import type { Endpoint } from '../endpoints/types.js';
import type { PluginDefinition } from '../registry/types.js';
import type { CycleContext, Plugin, ProfileResult, SchedulingResult, Scorer } from '../scheduling/plugins.js';
import type { SchedulingRequest } from '../scheduling/request.js';

import { schedulingResult } from '../scheduling/scheduling-result.js';
import { TraceRecorder } from '../scheduling/trace.js';

/**
 * Options of {@link cycleContext}.
 * @public
 */
export interface CycleContextSpec {
  /** Random source (default: `seededRandom(1)`, so runs repeat). */
  readonly random?: () => number;
  /** Record a trace (default false). */
  readonly trace?: boolean;
  /** Clock (default: a new `ManualClock` at 0). */
  readonly clock?: ManualClock;
}

/**
 * A scheduling cycle's context for calling a plugin directly.
 * @public
 */
export function cycleContext(spec: CycleContextSpec = {}): CycleContext {
  return {
    clock: spec.clock ?? new ManualClock(),
    random: spec.random ?? seededRandom(1),
    trace: spec.trace === true ? new TraceRecorder('req-1', 'm1', 0, 'default-flow') : undefined,
  };
}

/**
 * Options of {@link instantiate}.
 * @public
 */
export interface InstantiateOptions {
  /** Pool the plugin sees (default: an empty one). */
  readonly pool?: EndpointPool;
  /** Clock (default: a new `ManualClock`). */
  readonly clock?: ManualClock;
  /** Resolves other plugins by name (default: none found). */
  readonly lookup?: (name: string) => Plugin | undefined;
  /** Instance name (default: the plugin type). */
  readonly name?: string;
  /** Registry for the plugin's own metrics (default: none, as a picker without metrics). */
  readonly metrics?: Registry;
}

/**
 * Creates a plugin from its definition the way the config loader does: `parameters` go through
 * the definition's schema first, so a bad parameter throws as it would in a config file.
 * @public
 */
export function instantiate<P>(def: PluginDefinition<P>, parameters: unknown = {}, options: InstantiateOptions = {}): Plugin {
  return def.create(def.parameters.parse(parameters), {
    name: options.name ?? def.type,
    clock: options.clock ?? new ManualClock(),
    pool: options.pool ?? new EndpointPool(),
    lookup: options.lookup ?? (() => undefined),
    metrics: options.metrics,
  });
}

/**
 * Scores of `scorer` for `eps`, in endpoint order (an endpoint it did not score is `NaN`), through
 * the map-returning `score()`. Takes any plugin, as {@link instantiate} returns it, and throws a
 * `TypeError` naming it when it is not a scorer.
 * @public
 */
export function scoresOf(scorer: Plugin | Scorer, request: SchedulingRequest, eps: readonly Endpoint[], ctx: CycleContext = cycleContext()): number[] {
  if (!isScorer(scorer)) throw new TypeError(`plugin ${scorer.name} (${scorer.type}) is not a scorer`);
  const map = scorer.score(ctx, request, eps);
  return eps.map((e) => map.get(e.id) ?? Number.NaN);
}

function isScorer(plugin: Plugin): plugin is Scorer {
  return typeof (plugin as Partial<Scorer>).score === 'function';
}

/**
 * A scheduling result as the picker hands it to pre-request hooks: `primary` as the single target
 * of profile `default` (the primary profile), and each entry of `others` as the single target of
 * the profile it names (`{ prefill: endpoint }` for a disaggregated result).
 * @public
 */
export function resultOf(primary: Endpoint, others: Readonly<Record<string, Endpoint | undefined>> = {}): SchedulingResult {
  const results = new Map<string, ProfileResult | null>([['default', { targets: [primary], scored: [] }]]);
  for (const [profile, target] of Object.entries(others)) if (target !== undefined) results.set(profile, { targets: [target], scored: [] });
  return schedulingResult(results, 'default');
}
