import { systemClock, type Clock, type ConsoleFlowControl } from '@switchyard/core';
import type { FlowController } from './flow-controller.js';

/**
 * Options of {@link flowControlConsoleSource}.
 * @public
 * @category Controller
 */
export interface FlowControlConsoleSourceOptions {
  /** Time source for queue ages and rates. @default systemClock */
  readonly clock?: Clock;
  /** Dispatch and rejection rates are averaged over about this long. @default 10000 */
  readonly rateWindowMs?: number;
}

interface Sample {
  readonly at: number;
  readonly dispatched: number;
  readonly rejected: number;
}

/**
 * What the operator console shows of a flow controller: bands with their flows, queue depths and
 * the oldest wait per flow, Jain's fairness index, and dispatch and rejection rates. Rates come
 * from counting the controller's `dispatched`, `rejected` and `expired` events; the counters are
 * sampled once a second at most, and a handful of samples are kept, so memory stays bounded.
 * @returns a function to hand to the console as a pool's `flowControl`, and `close` to stop counting
 * @public
 * @category Controller
 */
export function flowControlConsoleSource(controller: FlowController, options: FlowControlConsoleSourceOptions = {}): { snapshot: () => Omit<ConsoleFlowControl, 'pool'>; close: () => void } {
  const clock = options.clock ?? systemClock;
  const windowMs = options.rateWindowMs ?? 10_000;
  let dispatched = 0;
  let rejected = 0;
  const onDispatched = (): void => { dispatched++; };
  const onRejected = (): void => { rejected++; };
  controller.on('dispatched', onDispatched);
  controller.on('rejected', onRejected);
  controller.on('expired', onRejected);
  const samples: Sample[] = [{ at: clock.now(), dispatched: 0, rejected: 0 }];
  const snapshot = (): Omit<ConsoleFlowControl, 'pool'> => {
    const now = clock.now();
    const last = samples[samples.length - 1] as Sample;
    if (now - last.at >= 1000) samples.push({ at: now, dispatched, rejected });
    // Keep the newest sample older than the window as the baseline; drop the ones before it.
    while (samples.length > 2 && now - (samples[1] as Sample).at >= windowMs) samples.shift();
    const base = samples[0] as Sample;
    const seconds = Math.max((now - base.at) / 1000, 1e-3);
    const stats = controller.stats();
    const flows = controller.flowStats();
    return {
      queuedRequests: stats.queuedRequests,
      inFlightRequests: stats.inFlightRequests,
      saturation: controller.saturation(),
      dispatchRate: (dispatched - base.dispatched) / seconds,
      rejectionRate: (rejected - base.rejected) / seconds,
      rateWindowSeconds: seconds,
      bands: stats.bands.map((b) => ({
        priority: b.priority,
        queuedRequests: b.queuedRequests,
        queuedBytes: b.queuedBytes,
        maxRequests: b.maxRequests,
        maxBytes: b.maxBytes,
        jainIndex: controller.fairnessIndex(b.priority),
        fairness: b.fairness,
        ordering: b.ordering,
        flows: flows
          .filter((f) => f.priority === b.priority)
          .map((f) => ({ fairnessId: f.fairnessId, queuedRequests: f.queuedRequests, queuedBytes: f.queuedBytes, oldestWaitMs: f.headEnqueuedAt === undefined ? 0 : Math.max(0, now - f.headEnqueuedAt) })),
      })),
    };
  };
  return {
    snapshot,
    close: () => {
      controller.off('dispatched', onDispatched);
      controller.off('rejected', onRejected);
      controller.off('expired', onRejected);
    },
  };
}
