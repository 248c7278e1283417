/**
 * Formats milliseconds as a Go-style duration (`90000` → `"1m30s"`), for error messages and docs.
 * @public
 * @category Units
 */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  let rest = ms;
  let out = '';
  for (const [unit, size] of [['h', 3_600_000], ['m', 60_000], ['s', 1000]] as const) {
    if (rest >= size) {
      const n = Math.floor(rest / size);
      out += `${n}${unit}`;
      rest -= n * size;
    }
  }
  if (rest > 0) out += `${Math.round(rest * 1e6) / 1e6}ms`;
  return out;
}
