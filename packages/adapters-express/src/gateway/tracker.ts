import type { Clock } from '@switchyard/core';
import { MemberList, type Membership } from './member-list.js';

/**
 * A request waiting for its scheduling decision; shutdown answers it 503 `rejected-shutting-down`.
 * @public
 */
export interface PendingDecision {
  /** Answers the client with `REJECTED_SHUTTING_DOWN` and cancels the pick. */
  shutdown(): void;
}

/**
 * A request being forwarded; a forced shutdown aborts it.
 * @public
 */
export interface Abortable {
  /** Aborts the forward in progress (set while there is one). */
  abort?: ((reason: Error) => void) | undefined;
}

/**
 * Tracks requests by stage so shutdown can reject the queued ones at once and wait for the ones
 * being forwarded.
 * @public
 */
export class RequestTracker {
  #shuttingDown = false;
  readonly #pending = new MemberList<PendingDecision>();
  readonly #forwarding = new MemberList<Abortable>();
  #drained: (() => void) | undefined;

  /** True once {@link RequestTracker.shutdown} was called. */
  get shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  /** Requests being forwarded. */
  get forwarding(): number {
    return this.#forwarding.size;
  }

  /** Requests waiting for a decision (queued in flow control included). */
  get pending(): number {
    return this.#pending.size;
  }

  /** Registers a request waiting for its decision; the handle unregisters it. */
  addPending(entry: PendingDecision): Membership<PendingDecision> {
    return this.#pending.add(entry);
  }

  /** Unregisters a request waiting for its decision (again: no effect). */
  deletePending(entry: Membership<PendingDecision> | undefined): void {
    this.#pending.remove(entry);
  }

  /** Registers a request being forwarded (its `abort` cuts it short); the handle unregisters it. */
  addForwarding(control: Abortable): Membership<Abortable> {
    return this.#forwarding.add(control);
  }

  /** Unregisters a forwarded request (again: no effect). */
  deleteForwarding(control: Membership<Abortable> | undefined): void {
    this.#forwarding.remove(control);
    if (this.#forwarding.size === 0) this.#drained?.();
  }

  /**
   * Stops accepting: rejects every pending request, then waits up to `graceMs` for forwarded ones
   * and aborts whatever is left with `reason`.
   * @returns the number of forwarded requests that had to be aborted
   */
  async shutdown(clock: Clock, graceMs: number, reason: Error): Promise<number> {
    this.#shuttingDown = true;
    for (const entry of this.#pending.values()) entry.shutdown();
    this.#pending.clear();
    if (this.#forwarding.size > 0) {
      await new Promise<void>((resolve) => {
        const timer = clock.setTimeout(resolve, graceMs);
        this.#drained = () => {
          clock.clearTimeout(timer);
          resolve();
        };
      });
    }
    this.#drained = undefined;
    const left = this.#forwarding.values();
    for (const control of left) control.abort?.(reason);
    return left.length;
  }
}
