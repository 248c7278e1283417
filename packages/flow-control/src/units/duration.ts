import { SwitchyardError, durationOrError } from '@switchyard/core';

/**
 * Parses a Go-style duration (`"60s"`, `"500ms"`, `"2m"`, `"1h30m"`, `"1.5s"`, `"0"`) into
 * milliseconds. Numbers are taken as milliseconds.
 * @throws SwitchyardError `CONFIG_INVALID` for anything else or a negative value
 * @public
 */
export function parseDuration(value: string | number): number {
  const ms = durationOrError(value);
  if (typeof ms === 'string') throw new SwitchyardError('CONFIG_INVALID', ms);
  return ms;
}

/**
 * Formats milliseconds as a Go-style duration (`90000` → `"1m30s"`), for error messages and docs.
 * @public
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
