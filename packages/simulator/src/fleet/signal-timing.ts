import type { Rng } from '../util/prng.js';

/**
 * How signals reach each gateway replica: metrics scrapes and KV events.
 * @public
 * @category Fleet
 */
export interface SignalTiming {
  /** Mean scrape interval, ms (llm-d refreshes every 50 ms). */
  readonly scrapeIntervalMs: number;
  /**
   * Relative jitter of each scrape interval (uniform ±, default 0.2). Every (replica, pod) pair
   * also starts at its own random phase, so scrapes are staggered as independent pollers are.
   */
  readonly scrapeJitter: number;
  /** Median delay from an engine step to its KV events reaching a replica, ms (default 10). */
  readonly kvEventDelayMs: number;
  /** Shape (σ of the log) of the log-normal KV-event delay (default 0.5; 0 = constant). */
  readonly kvEventDelaySigma: number;
  /** Probability that a KV-event batch never reaches a replica (default 0, as ZMQ PUB drops under a slow subscriber). */
  readonly kvEventLoss: number;
}

/**
 * Defaults of {@link SignalTiming}. @public
 * @category Fleet
 */
export const DEFAULT_SIGNAL_TIMING: SignalTiming = { scrapeIntervalMs: 50, scrapeJitter: 0.2, kvEventDelayMs: 10, kvEventDelaySigma: 0.5, kvEventLoss: 0 };

/** First scrape of a (replica, pod) pair: a random phase within one interval. @internal */
export const scrapePhaseMs = (t: SignalTiming, rng: Rng): number => rng.next() * t.scrapeIntervalMs;

/** The next scrape interval, jittered. @internal */
export const nextScrapeMs = (t: SignalTiming, rng: Rng): number => Math.max(1, t.scrapeIntervalMs * (1 + t.scrapeJitter * (2 * rng.next() - 1)));

/** Delay of one KV-event batch to one replica, or undefined when the batch is lost. @internal */
export function kvDeliveryMs(t: SignalTiming, rng: Rng): number | undefined {
  if (t.kvEventLoss > 0 && rng.next() < t.kvEventLoss) return undefined;
  if (t.kvEventDelaySigma <= 0) return t.kvEventDelayMs;
  // Clamped so one unlucky draw cannot hold a batch for minutes.
  return Math.min(t.kvEventDelayMs * 50, rng.lognormal(t.kvEventDelayMs, t.kvEventDelaySigma));
}
