/**
 * The measured window of a run: items whose (open-loop) arrival falls in `[fromMs, toMs)`. Items
 * before it warm the caches up, items after it drain the fleet; both are run but not judged. The
 * window is chosen from the workload alone, so every policy is judged on the same offered set.
 * @public
 * @category Report
 */
export interface MeasuredWindow {
  /** Start of the window, ms. */
  readonly fromMs: number;
  /** End of the window, ms. */
  readonly toMs: number;
  /** Indexes (workload order) of the items judged. */
  readonly items: readonly number[];
}

/**
 * Picks the measured window: the first `warmup` and the last `drain` fractions of the arrival
 * span are excluded (defaults 0.1 each).
 * @public
 * @category Report
 */
export function measuredWindow(arrivals: readonly number[], warmup = 0.1, drain = 0.1): MeasuredWindow {
  let last = 0;
  for (const a of arrivals) last = Math.max(last, a);
  const fromMs = last * warmup;
  const toMs = last * (1 - drain);
  const items: number[] = [];
  arrivals.forEach((a, i) => {
    if ((a >= fromMs && (a < toMs || (drain === 0 && a <= toMs))) || last === 0) items.push(i);
  });
  return { fromMs, toMs, items };
}
