import { SwitchyardError } from '@switchyard/core';
import type { Clock, TimerHandle } from '@switchyard/core';
import { MemberList, type Membership } from './member-list.js';

/**
 * Limits on request bodies being read, shared by every request of one gateway.
 * @public
 * @category Gateway options
 */
export interface BodyLimits {
  /** Time allowed from the request head to the last body byte. */
  readonly readTimeoutMs: number;
  /** Longest silence between body chunks. */
  readonly idleTimeoutMs: number;
  /** Most bytes held by all bodies being read at once. */
  readonly maxBufferedBytes: number;
}

/**
 * Opaque handle of a watched body, returned by {@link BodyWatch.add}.
 * @public
 */
export interface BodyWatchHandle {
  /** @internal brand */
  readonly __bodyWatchHandle?: never;
}

/**
 * A body being read, as the watch sees it.
 * @public
 */
export interface WatchedBody {
  /** When reading started (clock ms). */
  readonly startedAt: number;
  /** When the last chunk arrived (clock ms). */
  readonly lastDataAt: number;
  /** Ends the read with `error` (the watch has already forgotten it). */
  expire(error: SwitchyardError): void;
}

/**
 * Enforces {@link BodyLimits} for the bodies being read: one account of their buffered bytes,
 * and one sweep timer (armed only while a body is being read) instead of a timer per request,
 * so a body that arrives in one piece costs a list insertion, not a timer.
 * @public
 */
export class BodyWatch {
  /** The limits enforced. */
  readonly limits: BodyLimits;
  readonly #clock: Clock;
  readonly #bodies = new MemberList<WatchedBody>();
  readonly #sweepEveryMs: number;
  #timer: TimerHandle | undefined;
  #buffered = 0;
  /** Called with the new total whenever buffered bytes change. */
  onBufferedChange: ((bytes: number) => void) | undefined;

  constructor(clock: Clock, limits: BodyLimits) {
    this.#clock = clock;
    this.limits = limits;
    // A deadline is enforced within a quarter of the shorter timeout (at most a second late).
    this.#sweepEveryMs = Math.min(1000, Math.max(10, Math.min(limits.idleTimeoutMs, limits.readTimeoutMs) / 4));
  }

  /** The watch's clock reading (for a body's `lastDataAt`). */
  now(): number {
    return this.#clock.now();
  }

  /** Bytes held by bodies being read. */
  get buffered(): number {
    return this.#buffered;
  }

  /** Starts watching a body. */
  add(body: WatchedBody): BodyWatchHandle {
    const m = this.#bodies.add(body);
    if (this.#timer === undefined) this.#timer = this.#clock.setTimeout(this.#sweep, this.#sweepEveryMs);
    return m as BodyWatchHandle;
  }

  /** Stops watching a body and releases its `bytes`. */
  remove(handle: BodyWatchHandle, bytes: number): void {
    // Handles are only ever the memberships `add` returned; the brand keeps them opaque to callers.
    // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment
    this.#bodies.remove(handle as Membership<WatchedBody>);
    this.release(bytes);
    if (this.#bodies.size === 0 && this.#timer !== undefined) {
      this.#clock.clearTimeout(this.#timer);
      this.#timer = undefined;
    }
  }

  /**
   * Accounts `bytes` more, unless that would exceed the cap.
   * @returns false (and nothing accounted) when the cap would be exceeded
   */
  reserve(bytes: number): boolean {
    if (this.#buffered + bytes > this.limits.maxBufferedBytes) return false;
    this.#buffered += bytes;
    this.onBufferedChange?.(this.#buffered);
    return true;
  }

  /** Releases bytes accounted by {@link BodyWatch.reserve}. */
  release(bytes: number): void {
    if (bytes === 0) return;
    this.#buffered -= bytes;
    this.onBufferedChange?.(this.#buffered);
  }

  /** The error a body over the cap gets. */
  full(): SwitchyardError {
    return new SwitchyardError('REQUEST_BUFFERS_FULL', `the gateway is reading as many request-body bytes as it buffers at once (maxBufferedBodyBytes (${this.limits.maxBufferedBytes})); retry later`);
  }

  readonly #sweep = (): void => {
    this.#timer = undefined;
    const now = this.#clock.now();
    const { readTimeoutMs, idleTimeoutMs } = this.limits;
    for (const body of this.#bodies.values()) {
      if (now - body.startedAt >= readTimeoutMs) body.expire(new SwitchyardError('REQUEST_TIMEOUT', `request body not complete within bodyReadTimeoutMs (${readTimeoutMs})`));
      else if (now - body.lastDataAt >= idleTimeoutMs) body.expire(new SwitchyardError('REQUEST_TIMEOUT', `no request body bytes for bodyIdleTimeoutMs (${idleTimeoutMs})`));
    }
    if (this.#bodies.size > 0) this.#timer = this.#clock.setTimeout(this.#sweep, this.#sweepEveryMs);
  };
}
