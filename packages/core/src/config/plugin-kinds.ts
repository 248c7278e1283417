import type { Admitter, DataProducer, Filter, Picker, Plugin, ProfileHandler, Scorer, StageDecider } from '../scheduling/plugins.js';
import type { PluginDefinition } from '../registry/types.js';

/**
 * True when `p` is a {@link Filter}. @public
 * @category Configuration
 */
export function isFilter(p: Plugin): p is Filter {
  return typeof (p as Partial<Filter>).filter === 'function';
}

/**
 * True when `p` is a {@link Scorer}. @public
 * @category Configuration
 */
export function isScorer(p: Plugin): p is Scorer {
  return typeof (p as Partial<Scorer>).score === 'function';
}

/**
 * True when `p` is a {@link Picker}. @public
 * @category Configuration
 */
export function isPicker(p: Plugin): p is Picker {
  return typeof (p as Partial<Picker>).pick === 'function';
}

/**
 * True when `p` is a {@link ProfileHandler}. @public
 * @category Configuration
 */
export function isProfileHandler(p: Plugin): p is ProfileHandler {
  const h = p as Partial<ProfileHandler>;
  return typeof h.pickProfiles === 'function' && typeof h.processResults === 'function';
}

/**
 * True when `p` is a {@link DataProducer}. @public
 * @category Configuration
 */
export function isDataProducer(p: Plugin): p is DataProducer {
  const d = p as Partial<DataProducer>;
  return typeof d.produce === 'function' && Array.isArray(d.produces);
}

/**
 * True when `p` is an {@link Admitter}. @public
 * @category Configuration
 */
export function isAdmitter(p: Plugin): p is Admitter {
  return typeof (p as Partial<Admitter>).admitRequest === 'function';
}

/**
 * True when `p` is a {@link StageDecider}. @public
 * @category Configuration
 */
export function isStageDecider(p: Plugin): p is StageDecider {
  return typeof (p as Partial<StageDecider>).shouldRun === 'function';
}

/**
 * Attribute names an instance reads: its own `consumes` (parameter-dependent), else its
 * definition's, else (producers) the producer's declared inputs.
 * @internal
 */
export function consumesOf(p: Plugin, def: PluginDefinition | undefined): readonly string[] {
  return p.consumes ?? def?.consumes ?? [];
}
