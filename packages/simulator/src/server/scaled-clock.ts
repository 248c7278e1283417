import type { Clock, TimerHandle } from '@switchyard/core';
import { SwitchyardError } from '@switchyard/core';

/**
 * A clock that runs `factor` times faster than `base`: `now()` reads base time × factor and a
 * timer of `ms` fires after `ms / factor` base milliseconds. Wrapping the system clock with it lets
 * a live simulated pod take 50 ms of real time for a step the cost model prices at 500 ms, so a demo
 * runs 10× faster while every reported latency stays in model time.
 * @throws SwitchyardError `CONFIG_INVALID` when `factor` is not a positive finite number
 * @public
 * @category Server
 */
export function scaledClock(base: Clock, factor: number): Clock {
  if (!Number.isFinite(factor) || factor <= 0) {
    throw new SwitchyardError('CONFIG_INVALID', `timeScale: expected a positive number, got ${String(factor)}`);
  }
  if (factor === 1) return base;
  const origin = base.now();
  return {
    now: () => origin + (base.now() - origin) * factor,
    setTimeout: (fn: () => void, ms: number): TimerHandle => base.setTimeout(fn, ms / factor),
    clearTimeout: (handle: TimerHandle): void => { base.clearTimeout(handle); },
  };
}
