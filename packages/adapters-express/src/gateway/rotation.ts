import { EventEmitter } from 'eventemitter3';
import { EndpointPool, systemClock } from '@switchyard/core';
import type { Clock, Endpoint, EndpointSpec, TimerHandle } from '@switchyard/core';

/**
 * Options of {@link EndpointRotation}.
 * @public
 */
export interface EndpointRotationOptions {
  /** The pool discovery and the metrics scraper maintain. */
  readonly source: EndpointPool;
  /** Time source. @default systemClock */
  readonly clock?: Clock;
  /** Consecutive failed attempts that take an endpoint out of rotation. @default 5 */
  readonly failureThreshold?: number;
  /** Minimum time out of rotation before fresh metrics may bring an endpoint back. @default 5000 */
  readonly cooldownMs?: number;
  /**
   * Without fresh metrics (no scraper), an endpoint is tried again after this long anyway.
   * `0` disables the timed probe (only metrics bring it back). @default 30000
   */
  readonly probeAfterMs?: number;
  /** Never leave fewer endpoints than this in rotation (an empty pool fails every request). @default 1 */
  readonly minInRotation?: number;
}

/**
 * Events of {@link EndpointRotation}.
 * @public
 */
export interface EndpointRotationEvents {
  /** An endpoint was taken out of rotation. */
  open: [endpoint: Endpoint];
  /** An endpoint came back on probation (one more failure takes it out again). */
  halfOpen: [endpoint: Endpoint];
  /** An endpoint succeeded on probation and is fully back. */
  close: [endpoint: Endpoint];
}

interface BreakerState {
  failures: number;
  mode: 'closed' | 'open' | 'half-open';
  openedAt: number;
  timer: TimerHandle | undefined;
}

const specOf = (e: Endpoint): EndpointSpec => ({ id: e.id, address: e.address, labels: e.labels, metricsPort: e.metricsPort });

/**
 * A circuit breaker per endpoint, implemented as a second `EndpointPool` that mirrors the
 * source pool minus the endpoints that keep failing. Give `rotation.pool` to the picker and the flow
 * controller: an endpoint out of rotation is simply not a candidate (like a pod failing its
 * readiness probe), whatever the scorers think of it, and it stops counting towards saturation.
 *
 * After `failureThreshold` consecutive failed attempts an endpoint leaves the rotation. It comes
 * back half-open when its metrics recover (a scrape newer than `cooldownMs` after it left) or,
 * without metrics, after `probeAfterMs`; the next success closes the breaker, a failure opens it
 * again.
 * @public
 */
export class EndpointRotation extends EventEmitter<EndpointRotationEvents> {
  /** The pool to schedule over: the source pool without endpoints out of rotation. */
  readonly pool = new EndpointPool();
  readonly #source: EndpointPool;
  readonly #clock: Clock;
  readonly #threshold: number;
  readonly #cooldownMs: number;
  readonly #probeAfterMs: number;
  readonly #minIn: number;
  readonly #state = new Map<string, BreakerState>();
  readonly #detach: () => void;

  constructor(options: EndpointRotationOptions) {
    super();
    this.#source = options.source;
    this.#clock = options.clock ?? systemClock;
    this.#threshold = Math.max(1, options.failureThreshold ?? 5);
    this.#cooldownMs = Math.max(0, options.cooldownMs ?? 5000);
    this.#probeAfterMs = Math.max(0, options.probeAfterMs ?? 30_000);
    this.#minIn = Math.max(0, options.minInRotation ?? 1);
    const onAdded = (e: Endpoint): void => { this.#mirror(e); };
    const onUpdated = (e: Endpoint): void => {
      if (this.pool.get(e.id) !== undefined) this.pool.upsert(specOf(e));
    };
    const onRemoved = (e: Endpoint): void => { this.#forget(e.id); };
    const onMetrics = (e: Endpoint): void => { this.#onMetrics(e); };
    const src = this.#source;
    src.on('added', onAdded).on('updated', onUpdated).on('removed', onRemoved).on('metrics', onMetrics);
    this.#detach = () => {
      src.off('added', onAdded).off('updated', onUpdated).off('removed', onRemoved).off('metrics', onMetrics);
    };
    for (const e of src.list()) this.#mirror(e);
  }

  /** Records a successful attempt on `id` (resets its failure count, closes a half-open breaker). */
  recordSuccess(id: string): void {
    const s = this.#state.get(id);
    if (s === undefined) return;
    s.failures = 0;
    if (s.mode === 'half-open') {
      s.mode = 'closed';
      const e = this.pool.get(id);
      if (e !== undefined) this.emit('close', e);
    }
  }

  /** Records a failed attempt on `id`; may take it out of rotation. */
  recordFailure(id: string): void {
    const s = this.#state.get(id);
    if (s === undefined || s.mode === 'open') return;
    s.failures++;
    if (s.mode === 'half-open' || s.failures >= this.#threshold) this.#open(id, s);
  }

  /** True when `id` is currently out of rotation. */
  isOut(id: string): boolean {
    return this.#state.get(id)?.mode === 'open';
  }

  /** Ids of the endpoints currently out of rotation. */
  outOfRotation(): string[] {
    return [...this.#state].filter(([, s]) => s.mode === 'open').map(([id]) => id);
  }

  /** Stops mirroring and cancels probe timers. */
  close(): void {
    this.#detach();
    for (const s of this.#state.values()) if (s.timer !== undefined) this.#clock.clearTimeout(s.timer);
  }

  #mirror(e: Endpoint): void {
    if (!this.#state.has(e.id)) this.#state.set(e.id, { failures: 0, mode: 'closed', openedAt: 0, timer: undefined });
    if (this.#state.get(e.id)?.mode === 'open') return;
    this.pool.upsert(specOf(e));
    if (e.metrics !== undefined) this.pool.setMetrics(e.id, e.metrics);
  }

  #forget(id: string): void {
    const s = this.#state.get(id);
    if (s?.timer !== undefined) this.#clock.clearTimeout(s.timer);
    this.#state.delete(id);
    this.pool.remove(id);
  }

  #onMetrics(e: Endpoint): void {
    const s = this.#state.get(e.id);
    if (s === undefined || e.metrics === undefined) return;
    if (s.mode !== 'open') {
      this.pool.setMetrics(e.id, e.metrics);
      return;
    }
    if (e.metrics.updatedAt >= s.openedAt + this.#cooldownMs) this.#halfOpen(e.id, s);
  }

  #open(id: string, s: BreakerState): void {
    const e = this.pool.get(id);
    if (e === undefined) return;
    if (this.pool.size <= this.#minIn) {
      // Keeping a sick endpoint beats an empty pool that rejects everything; stay on probation.
      s.mode = 'half-open';
      s.failures = this.#threshold - 1;
      return;
    }
    s.mode = 'open';
    s.openedAt = this.#clock.now();
    this.pool.remove(id);
    if (this.#probeAfterMs > 0) s.timer = this.#clock.setTimeout(() => { this.#halfOpen(id, s); }, this.#probeAfterMs);
    this.emit('open', e);
  }

  #halfOpen(id: string, s: BreakerState): void {
    if (s.mode !== 'open' || this.#state.get(id) !== s) return;
    if (s.timer !== undefined) this.#clock.clearTimeout(s.timer);
    s.timer = undefined;
    s.mode = 'half-open';
    s.failures = this.#threshold - 1;
    const src = this.#source.get(id);
    if (src === undefined) return;
    this.pool.upsert(specOf(src));
    if (src.metrics !== undefined) this.pool.setMetrics(id, src.metrics);
    const e = this.pool.get(id);
    if (e !== undefined) this.emit('halfOpen', e);
  }
}
