/**
 * Opaque handle returned by {@link Clock.setTimeout}.
 * @public
 * @category Clock and randomness
 */
export interface TimerHandle {
  /** @internal brand so handles of different clocks are not confused by accident */
  readonly __timerHandle?: never;
}

/**
 * The only source of time in Switchyard. Every component that reads time or sets a timer takes a
 * `Clock`, so the same scheduler and flow controller run in real time (with {@link systemClock}) or
 * in virtual time (with {@link ManualClock}) and make identical decisions.
 * @public
 * @category Clock and randomness
 */
export interface Clock {
  /** Milliseconds since an arbitrary origin; never decreases. */
  now(): number;
  /** Calls `fn` once, `ms` milliseconds from now. */
  setTimeout(fn: () => void, ms: number): TimerHandle;
  /** Cancels a timer; unknown or fired handles are ignored. */
  clearTimeout(handle: TimerHandle): void;
}

/**
 * The real clock: `performance.now()` for reads (monotonic) and Node timers that do not keep the
 * process alive.
 * @public
 * @category Clock and randomness
 */
export const systemClock: Clock = {
  now: () => performance.now(),
  setTimeout(fn, ms) {
    const t = setTimeout(fn, Math.max(0, ms));
    t.unref();
    return t as unknown as TimerHandle;
  },
  clearTimeout(handle) {
    clearTimeout(handle as unknown as NodeJS.Timeout);
  },
};

/**
 * Resolves after `ms` milliseconds of `clock` time, or rejects with the signal's reason when it aborts.
 * @public
 * @category Clock and randomness
 */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = (): void => {
      clock.clearTimeout(handle);
      reject(signal?.reason as Error);
    };
    const handle = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
