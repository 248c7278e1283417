import { SwitchyardError, type Clock } from '@switchyard/core';

/**
 * How much KV-event work a subscriber may do, so that a flood of events never starves the
 * request path sharing its event loop.
 * @public
 * @category Subscriber
 */
export interface KvEventBudgetOptions {
  /**
   * Events applied before the receive loop yields to the event loop (timers, sockets, requests)
   * and only then reads the next message. @defaultValue 2000
   */
  readonly eventsPerSlice?: number;
  /**
   * Sustained events per second over all endpoints of the subscriber (a token bucket holding one
   * second's worth). A batch that finds the bucket empty is dropped, counted as
   * `switchyard_kv_event_errors_total{cause="over-budget"}`, and its endpoint's cache state is
   * cleared (unknown beats wrong). @defaultValue 100000
   */
  readonly maxEventsPerSecond?: number;
}

function positiveInt(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0) throw new SwitchyardError('CONFIG_INVALID', `kv events: budget.${name} must be a positive integer, got ${String(value)}`);
  return value;
}

/** Yields to the event loop's check phase, after pending I/O and timers. */
const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The shared work budget of one subscriber's subscriptions.
 * @internal
 */
export class KvEventBudget {
  readonly eventsPerSlice: number;
  readonly maxEventsPerSecond: number;
  readonly #clock: Clock;
  #tokens: number;
  #refilledAt: number;
  #slice = 0;

  /** @throws SwitchyardError `CONFIG_INVALID` naming the bad field */
  constructor(options: KvEventBudgetOptions, clock: Clock) {
    this.eventsPerSlice = positiveInt(options.eventsPerSlice, 2000, 'eventsPerSlice');
    this.maxEventsPerSecond = positiveInt(options.maxEventsPerSecond, 100_000, 'maxEventsPerSecond');
    this.#clock = clock;
    this.#tokens = this.maxEventsPerSecond;
    this.#refilledAt = clock.now();
  }

  /** Takes `events` from the bucket; false (nothing taken) when the batch is over budget. */
  spend(events: number): boolean {
    const now = this.#clock.now();
    const elapsed = now - this.#refilledAt;
    if (elapsed > 0) {
      this.#tokens = Math.min(this.maxEventsPerSecond, this.#tokens + (elapsed * this.maxEventsPerSecond) / 1000);
      this.#refilledAt = now;
    }
    if (events > this.#tokens) return false;
    this.#tokens -= events;
    this.#slice += events;
    return true;
  }

  /** A promise to await before the next message when this slice's share is used up; else undefined. */
  pause(): Promise<void> | undefined {
    if (this.#slice < this.eventsPerSlice) return undefined;
    this.#slice = 0;
    return yieldToEventLoop();
  }
}
