import type { Clock } from '@switchyard/core';

/**
 * How many worker restarts a sliding minute allows: a worker that keeps crashing (a bug hit by
 * every request, a host out of memory) must not turn the primary into a fork loop.
 * @internal
 */
export class RestartBudget {
  readonly #clock: Clock;
  readonly #max: number;
  readonly #windowMs: number;
  #at: number[] = [];

  constructor(clock: Clock, maxPerWindow: number, windowMs = 60_000) {
    this.#clock = clock;
    this.#max = maxPerWindow;
    this.#windowMs = windowMs;
  }

  /** True (and the restart is counted) when one more restart fits in the window ending now. */
  take(): boolean {
    const now = this.#clock.now();
    this.#at = this.#at.filter((t) => now - t < this.#windowMs);
    if (this.#at.length >= this.#max) return false;
    this.#at.push(now);
    return true;
  }
}
