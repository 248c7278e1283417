import type { Clock } from '../clock/clock.js';
import { systemClock } from '../clock/clock.js';
import { SwitchyardError, isSwitchyardError } from '../errors/switchyard-error.js';
import type { DecisionTrace } from '../scheduling/trace.js';

/**
 * How one recorded request ended, as far as the console knows. `pending` until the adapter
 * completes the decision; `rejected` when scheduling itself refused the request.
 * @public
 * @category Decision console
 */
export type DecisionOutcome = 'pending' | 'success' | 'error' | 'cancelled' | 'rejected';

/**
 * One request as the console shows it: who asked for what, where it went and why.
 * @public
 * @category Decision console
 */
export interface DecisionRecord {
  /** Request id (the `x-request-id` the gateway forwards upstream). */
  readonly requestId: string;
  /** Pool that scheduled it. */
  readonly pool: string;
  /** Clock time (ms) the pick started. */
  readonly at: number;
  /** Model the client asked for. */
  readonly model: string;
  /** Model after rewrite (empty when scheduling was rejected before the rewrite). */
  targetModel: string;
  /** Fairness (tenant) id. */
  fairnessId: string;
  /** Priority from the objective. */
  priority: number;
  /** Primary endpoint id, when one was picked. */
  endpoint: string | undefined;
  /** Fallback endpoint ids, in order. */
  fallbacks: readonly string[];
  /** Milliseconds from the pick's start to the decision (queue wait included). */
  scheduleMs: number | undefined;
  /** Milliseconds from the pick's start to completion. */
  totalMs: number | undefined;
  /** Outcome so far. */
  outcome: DecisionOutcome;
  /** Error code (SwitchyardError `code`) or HTTP status of a failed outcome. */
  error: string | undefined;
  /** Prompt and completion tokens, when the response reported usage. */
  usage: { readonly promptTokens: number; readonly completionTokens: number } | undefined;
  /** The full scheduling trace (filters, per-scorer scores and weights, picks). */
  trace: DecisionTrace | undefined;
}

/**
 * Options of {@link DecisionLog}.
 * @public
 * @category Decision console
 */
export interface DecisionLogOptions {
  /** Records kept; the oldest is dropped first. @default 200 */
  readonly capacity?: number;
  /** Time source. @default systemClock */
  readonly clock?: Clock;
}

/**
 * A bounded ring buffer of the most recent decisions, newest last. Memory is bounded by
 * `capacity` records (each holds one trace), whatever the request rate.
 * @public
 * @category Decision console
 */
export class DecisionLog {
  /** Time source of the records. */
  readonly clock: Clock;
  /** Largest number of records kept. */
  readonly capacity: number;
  readonly #ring: (DecisionRecord | undefined)[];
  #next = 0;
  #count = 0;
  #total = 0;

  /** @throws SwitchyardError `CONFIG_INVALID` when `capacity` is not a positive integer */
  constructor(options: DecisionLogOptions = {}) {
    const capacity = options.capacity ?? 200;
    if (!Number.isInteger(capacity) || capacity < 1) throw new SwitchyardError('CONFIG_INVALID', `capacity: expected a positive integer, got ${String(capacity)}`);
    this.capacity = capacity;
    this.clock = options.clock ?? systemClock;
    this.#ring = new Array<DecisionRecord | undefined>(capacity).fill(undefined);
  }

  /** Records seen since creation (including those already dropped). */
  get total(): number {
    return this.#total;
  }

  /** Records currently held. */
  get size(): number {
    return this.#count;
  }

  /** Adds a record (dropping the oldest when full) and returns it for later updates. */
  push(record: DecisionRecord): DecisionRecord {
    this.#ring[this.#next] = record;
    this.#next = (this.#next + 1) % this.capacity;
    if (this.#count < this.capacity) this.#count++;
    this.#total++;
    return record;
  }

  /** The records held, newest first; at most `limit`. */
  recent(limit = this.capacity): DecisionRecord[] {
    const out: DecisionRecord[] = [];
    const n = Math.min(limit, this.#count);
    for (let i = 1; i <= n; i++) {
      const r = this.#ring[(this.#next - i + this.capacity) % this.capacity];
      if (r !== undefined) out.push(r);
    }
    return out;
  }

  /** The newest record of a request id, if still held. */
  find(requestId: string): DecisionRecord | undefined {
    return this.recent().find((r) => r.requestId === requestId);
  }
}

/** The stable name of an error for the console: its contract code, else its message. */
export function errorName(err: unknown): string {
  if (isSwitchyardError(err)) return err.code;
  if (err instanceof Error) return err.name === 'AbortError' ? 'cancelled' : err.message;
  return String(err);
}
