/** Two-sided 97.5% Student t quantiles for 1..30 degrees of freedom. */
const T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042];

/**
 * Mean of a metric over seeds with the half-width of its 95% confidence interval (Student t;
 * 0 with one seed, and an infinite mean stays infinite).
 * @public
 * @category Report
 */
export interface SeedInterval {
  /** Mean over seeds. */
  readonly mean: number;
  /** Half-width of the 95% confidence interval. */
  readonly ci95: number;
  /** Seeds. */
  readonly n: number;
}

/**
 * 95% confidence interval of the mean of `xs` (one value per seed).
 * @public
 * @category Report
 */
export function seedInterval(xs: readonly number[]): SeedInterval {
  const n = xs.length;
  if (n === 0) return { mean: 0, ci95: 0, n: 0 };
  const mean = xs.reduce((a, x) => a + x, 0) / n;
  if (n === 1 || !Number.isFinite(mean)) return { mean, ci95: 0, n };
  const variance = xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1);
  const t = T975[n - 2] ?? 1.96;
  return { mean, ci95: (t * Math.sqrt(variance)) / Math.sqrt(n), n };
}
