/**
 * Jain's fairness index of `values`: (Σx)² / (n · Σx²), 1 when all shares are equal and 1/n when
 * one member got everything. An empty list or all-zero shares count as perfectly fair (1).
 * @public
 * @category Metrics
 */
export function jainsIndex(values: Iterable<number>): number {
  let n = 0;
  let sum = 0;
  let squares = 0;
  for (const x of values) {
    n++;
    sum += x;
    squares += x * x;
  }
  return n === 0 || squares === 0 ? 1 : (sum * sum) / (n * squares);
}
