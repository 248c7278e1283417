import type { Plugin } from './plugins.js';

/**
 * Extension points whose plugin calls can be timed (the `extension_point` metric label).
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export type ExtensionPoint = 'Filter' | 'Scorer' | 'Picker' | 'ProfileHandler' | 'DataProducer' | 'PreRequest' | 'ResponseStart' | 'Usage' | 'Complete';

/**
 * Receives per-plugin timings from the scheduler. Timing costs two clock reads per plugin call,
 * so the scheduler only measures one cycle in `sampleEvery` (and never without an observer).
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export interface PluginObserver {
  /** Measure one scheduling cycle out of this many (1 = every cycle). */
  readonly sampleEvery: number;
  /** One timed plugin call, in milliseconds of the scheduler's clock. */
  record(extensionPoint: ExtensionPoint, plugin: Plugin, durationMs: number): void;
}
