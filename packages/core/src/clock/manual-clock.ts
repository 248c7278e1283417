import type { Clock, TimerHandle } from './clock.js';

interface ManualTimer extends TimerHandle {
  readonly seq: number;
  readonly at: number;
  readonly fn: () => void;
  cancelled: boolean;
}

const before = (a: ManualTimer, b: ManualTimer): boolean => a.at < b.at || (a.at === b.at && a.seq < b.seq);

/**
 * A clock that moves only when told to. Timers fire in due-time order (ties in creation order)
 * during {@link ManualClock.advance}, and `now()` reads the timer's due time while it runs, so
 * code under test sees exactly the time it asked for. Timers live in a binary heap with lazy
 * cancellation, so the simulator can keep hundreds of thousands of them cheaply.
 * @example
 * ```ts
 * const clock = new ManualClock();
 * clock.setTimeout(() => console.log(clock.now()), 100);
 * clock.advance(250); // logs 100; clock.now() === 250 afterwards
 * ```
 * @public
 * @category Clock and randomness
 */
export class ManualClock implements Clock {
  #now: number;
  #seq = 0;
  #heap: ManualTimer[] = [];
  #live = 0;

  /** @param start - initial time in milliseconds (default 0) */
  constructor(start = 0) {
    this.#now = start;
  }

  /** Current virtual time in milliseconds. */
  now(): number {
    return this.#now;
  }

  /** Schedules `fn` at `now() + max(0, ms)`. */
  setTimeout(fn: () => void, ms: number): TimerHandle {
    const delay = Number.isFinite(ms) ? Math.max(0, ms) : 0;
    const timer: ManualTimer = { seq: this.#seq++, at: this.#now + delay, fn, cancelled: false };
    this.#push(timer);
    this.#live++;
    return timer;
  }

  /** Cancels a pending timer; unknown or fired handles are ignored. */
  clearTimeout(handle: TimerHandle): void {
    const timer = handle as Partial<ManualTimer>;
    if (typeof timer.seq !== 'number' || timer.cancelled !== false) return;
    timer.cancelled = true;
    this.#live--;
  }

  /** Number of timers that have not fired and were not cancelled. */
  get pendingTimers(): number {
    return this.#live;
  }

  /** Due time of the earliest pending timer, or `undefined` when none is pending. */
  nextTimerAt(): number | undefined {
    this.#dropCancelledHead();
    return this.#heap[0]?.at;
  }

  /**
   * Moves time forward by `ms`, firing every timer that falls due on the way (including timers
   * that those timers set, if they fall within the window).
   * @throws RangeError when `ms` is negative or not finite
   */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) {
      throw new RangeError(`Expected \`ms\` to be a finite number >= 0, got \`${String(ms)}\``);
    }
    this.advanceTo(this.#now + ms);
  }

  /** Moves time forward to the absolute time `t` (no-op when `t` is in the past). */
  advanceTo(t: number): void {
    for (;;) {
      this.#dropCancelledHead();
      const next = this.#heap[0];
      if (next === undefined || next.at > t) break;
      this.#pop();
      next.cancelled = true;
      this.#live--;
      this.#now = Math.max(this.#now, next.at);
      next.fn();
    }
    this.#now = Math.max(this.#now, t);
  }

  /** Fires the earliest pending timer (moving time to it). Returns false when none is pending. */
  runNext(): boolean {
    const at = this.nextTimerAt();
    if (at === undefined) return false;
    this.advanceTo(at);
    return true;
  }

  #dropCancelledHead(): void {
    while (this.#heap[0]?.cancelled === true) this.#pop();
  }

  #push(timer: ManualTimer): void {
    const heap = this.#heap;
    heap.push(timer);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = heap[parent] as ManualTimer;
      if (!before(timer, p)) break;
      heap[i] = p;
      i = parent;
    }
    heap[i] = timer;
  }

  #pop(): void {
    const heap = this.#heap;
    const last = heap.pop();
    if (last === undefined || heap.length === 0) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= heap.length) break;
      const r = l + 1;
      const child = r < heap.length && before(heap[r] as ManualTimer, heap[l] as ManualTimer) ? r : l;
      const c = heap[child] as ManualTimer;
      if (!before(c, last)) break;
      heap[i] = c;
      i = child;
    }
    heap[i] = last;
  }
}
