import { EventEmitter } from 'eventemitter3';
import { EndpointPool, optionRules, resolveOptions, systemClock } from '@switchyard/core';
import type { Clock, Endpoint, EndpointSpec, OptionRules, TimerHandle } from '@switchyard/core';

/**
 * Options of {@link EndpointRotation}.
 * @public
 * @category Gateway options
 */
export interface EndpointRotationOptions {
  /** The pool discovery and the metrics scraper maintain. */
  readonly source: EndpointPool;
  /** Time source (default: the system clock). */
  readonly clock?: Clock;
  /**
   * Consecutive failed attempts that take an endpoint out of rotation (an integer ≥ 1).
   * @defaultValue 5
   */
  readonly failureThreshold?: number | undefined;
  /**
   * Minimum time out of rotation before fresh metrics may bring an endpoint back, ms (≥ 0).
   * @defaultValue 5000
   */
  readonly cooldownMs?: number | undefined;
  /**
   * Without fresh metrics (no scraper), an endpoint is tried again after this long anyway, ms.
   * `0` disables the timed probe (only metrics bring it back).
   * @defaultValue 30000
   */
  readonly probeAfterMs?: number | undefined;
  /**
   * Never leave fewer endpoints than this in rotation (an empty pool fails every request; an
   * integer ≥ 0).
   * @defaultValue 1
   */
  readonly minInRotation?: number | undefined;
}

/**
 * The defaults of {@link EndpointRotationOptions}, stated once: the rotation resolves its options
 * against them, and the `gateway.circuitBreaker` config section defaults to them.
 * @public
 * @category Gateway
 */
export const ENDPOINT_ROTATION_DEFAULTS: {
  readonly failureThreshold: number;
  readonly cooldownMs: number;
  readonly probeAfterMs: number;
  readonly minInRotation: number;
} = Object.freeze({
  failureThreshold: 5,
  cooldownMs: 5000,
  probeAfterMs: 30_000,
  minInRotation: 1,
});

/** The options of {@link EndpointRotationOptions} that have a plain default. */
type RotationDefaults = typeof ENDPOINT_ROTATION_DEFAULTS;

const ROTATION_RULES: OptionRules<RotationDefaults> = {
  failureThreshold: optionRules.integerAtLeast(1),
  cooldownMs: optionRules.nonNegativeNumber,
  probeAfterMs: optionRules.nonNegativeNumber,
  minInRotation: optionRules.integerAtLeast(0),
};

/**
 * The rotation's defaulted options, checked and filled from {@link ENDPOINT_ROTATION_DEFAULTS}
 * (the constructor and the `gateway.circuitBreaker` config check share it).
 * @throws SwitchyardError `CONFIG_INVALID` naming `gateway.circuitBreaker.<option>`
 */
export function resolveRotationOptions(input: unknown): Readonly<RotationDefaults> {
  return resolveOptions('gateway.circuitBreaker', input, ENDPOINT_ROTATION_DEFAULTS, ROTATION_RULES);
}

/**
 * Events of {@link EndpointRotation}.
 * @public
 * @category Gateway options
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

const specOf = (e: Endpoint): EndpointSpec => ({ id: e.id, address: e.address, labels: e.labels, metricsPort: e.metricsPort, ...(e.metricsHost === undefined ? {} : { metricsHost: e.metricsHost }) });

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
 * @category Gateway
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

  /**
   * @throws SwitchyardError `CONFIG_INVALID` naming the bad option
   * (`gateway.circuitBreaker.failureThreshold: must be an integer ≥ 1, got 0`): out-of-range
   * values are errors, never clamped.
   */
  constructor(options: EndpointRotationOptions) {
    super();
    const resolved = resolveRotationOptions(options);
    this.#source = options.source;
    this.#clock = options.clock ?? systemClock;
    this.#threshold = resolved.failureThreshold;
    this.#cooldownMs = resolved.cooldownMs;
    this.#probeAfterMs = resolved.probeAfterMs;
    this.#minIn = resolved.minInRotation;
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
