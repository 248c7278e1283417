/*
 * Waiting in tests without fixed sleeps. A test waits for a condition (re-checked whenever the
 * event loop has had a turn, backing off so a loaded machine is not kept busy) or for an event;
 * with a ManualClock it moves virtual time instead, so timers the code under test set fire
 * deterministically. The time limit is a guard against hangs, never something a test asserts.
 */
import type { ManualClock } from '../clock/manual-clock.js';

/**
 * Options of {@link waitFor}.
 * @public
 */
export interface WaitForOptions {
  /** Names the condition in the timeout error (default `condition`). */
  readonly what?: string;
  /**
   * Give up after this long: real milliseconds, or virtual milliseconds of `clock` when given.
   * @defaultValue 10000
   */
  readonly timeoutMs?: number;
  /** Advance this clock by `stepMs` between checks instead of waiting for real time. */
  readonly clock?: ManualClock;
  /**
   * Virtual milliseconds per step with `clock`.
   * @defaultValue 1
   */
  readonly stepMs?: number;
  /** Stops waiting (rejects with the signal's reason). */
  readonly signal?: AbortSignal;
}

/** Real waits between checks grow to this, so a long wait costs little CPU. */
const MAX_POLL_MS = 20;

/**
 * Resolves with the first truthy value `check` returns. `check` runs at once, then after every
 * event-loop turn (real I/O, timers and promise callbacks have run), or with `clock` after every
 * `stepMs` of virtual time. Rejects with an error naming `what` after `timeoutMs`, and with the
 * reason when `signal` aborts. An exception from `check` rejects at once.
 * @public
 */
export async function waitFor<T>(check: () => T | Promise<T>, options: WaitForOptions = {}): Promise<NonNullable<T>> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const clock = options.clock;
  const started = clock === undefined ? performance.now() : clock.now();
  for (let turn = 0; ; turn++) {
    options.signal?.throwIfAborted();
    const value = await check();
    if (value !== undefined && value !== null && value !== false) return value;
    const elapsed = (clock === undefined ? performance.now() : clock.now()) - started;
    if (elapsed >= timeoutMs) throw new Error(`waitFor: ${options.what ?? 'condition'} not met within ${timeoutMs} ms${clock === undefined ? '' : ' of virtual time'}`);
    if (clock === undefined) await pause(turn);
    else {
      await settle();
      clock.advance(options.stepMs ?? 1);
    }
  }
}

/** One event-loop turn at first, then growing timer waits up to {@link MAX_POLL_MS}. */
function pause(turn: number): Promise<void> {
  if (turn < 10) return new Promise((resolve) => setImmediate(resolve));
  return new Promise((resolve) => setTimeout(resolve, Math.min(MAX_POLL_MS, turn - 9)));
}

/**
 * Runs pending promise callbacks (microtasks and one macrotask turn) without moving any clock:
 * what a test awaits after resolving something before it asserts on the consequences.
 * @public
 */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
  await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Something that emits named events: a node `EventEmitter`, an `eventemitter3` emitter.
 * @public
 */
export interface EventSource {
  once(event: string, listener: (...args: unknown[]) => void): unknown;
  off(event: string, listener: (...args: unknown[]) => void): unknown;
}

/**
 * Resolves with the arguments of the next `event` that `source` emits. Rejects with an error naming
 * the event after `timeoutMs` real milliseconds (default 10000), or when `signal` aborts.
 * @public
 */
export function waitForEvent(source: EventSource, event: string, options: { readonly timeoutMs?: number; readonly signal?: AbortSignal } = {}): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    const timeoutMs = options.timeoutMs ?? 10_000;
    const done = (): void => {
      clearTimeout(timer);
      source.off(event, onEvent);
      options.signal?.removeEventListener('abort', onAbort);
    };
    const onEvent = (...args: unknown[]): void => {
      done();
      resolve(args);
    };
    const onAbort = (): void => {
      done();
      const reason: unknown = options.signal?.reason;
      reject(reason instanceof Error ? reason : new Error(`waitForEvent: aborted while waiting for '${event}'`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`waitForEvent: no '${event}' event within ${timeoutMs} ms`));
    }, timeoutMs);
    if (options.signal?.aborted === true) {
      onAbort();
      return;
    }
    options.signal?.addEventListener('abort', onAbort, { once: true });
    source.once(event, onEvent);
  });
}
