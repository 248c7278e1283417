import { type Clock, type EndpointPool, type PoolSaturation, type SaturationDetector } from '@switchyard/core';
import { poolSaturation, stageSaturation } from '@switchyard/core/internal';

/**
 * Pool saturation as the dispatcher must see it. Requests granted in this pass (or earlier) whose
 * scheduling has not yet added them to an endpoint's in-flight counts are invisible to the
 * detector; the gate adds them back as pending load (outstanding grants minus the pool's in-flight
 * total), so a pass that dispatches many requests at once closes exactly when the detector would
 * after they land, instead of over-committing until the next event. When nothing else accounts
 * in-flight load (a controller used without the picker), every outstanding grant is pending, which
 * makes `concurrency-detector` count the controller's own grants.
 */
export class SaturationGate {
  readonly #pool: EndpointPool;
  readonly #detector: SaturationDetector;
  readonly #clock: Clock;
  // Reused on every evaluation so the hot path does not allocate.
  readonly #pending = { requests: 0, tokens: 0 };

  constructor(pool: EndpointPool, detector: SaturationDetector, clock: Clock) {
    this.#pool = pool;
    this.#detector = detector;
    this.#clock = clock;
  }

  /** The detector in use. */
  get detector(): SaturationDetector {
    return this.#detector;
  }

  /** Gate value (max over stages) at clock time `now`, given the controller's outstanding grants. */
  value(outstandingRequests: number, outstandingTokens: number, now: number): number {
    const endpoints = this.#fillPending(outstandingRequests, outstandingTokens);
    return poolSaturation(this.#detector, endpoints, now, this.#pending);
  }

  /** Per-stage breakdown (metrics, stats). */
  stages(outstandingRequests: number, outstandingTokens: number): PoolSaturation {
    const endpoints = this.#fillPending(outstandingRequests, outstandingTokens);
    return stageSaturation(this.#detector, endpoints, this.#clock.now(), { ...this.#pending });
  }

  #fillPending(outstandingRequests: number, outstandingTokens: number): ReturnType<EndpointPool['list']> {
    const endpoints = this.#pool.list();
    let requests = 0;
    let tokens = 0;
    for (const e of endpoints) {
      requests += e.inFlightRequests;
      tokens += e.inFlightTokens;
    }
    this.#pending.requests = Math.max(0, outstandingRequests - requests);
    this.#pending.tokens = Math.max(0, outstandingTokens - tokens);
    return endpoints;
  }
}
