import type { ManualClock } from '@switchyard/core';

/** Lets promise continuations (picks, admissions) run at the current virtual instant. */
const flush = (): Promise<void> => new Promise((resolve) => { setImmediate(resolve); });

/**
 * Runs a discrete-event simulation on `clock`: jumps to the next timer, fires everything due at
 * that instant, and - when async work is outstanding (`pending()`) - yields to the event loop so
 * promise continuations run before time moves on. Nothing else advances virtual time, so a run is
 * deterministic. Stops when `done()` or when time would pass `limitMs`.
 * @internal
 */
export async function driveClock(clock: ManualClock, done: () => boolean, pending: () => boolean, limitMs: number): Promise<void> {
  let idleFlushes = 0;
  for (;;) {
    if (pending()) await flush();
    if (done()) return;
    const next = clock.nextTimerAt();
    if (next === undefined) {
      // Only promise continuations can make progress now; give up if they do not.
      if (!pending() || ++idleFlushes > 1000) return;
      continue;
    }
    idleFlushes = 0;
    if (next > limitMs) return;
    clock.advanceTo(next);
  }
}
