import { SwitchyardError } from '@switchyard/core';

const UNIT_MS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  'µs': 1e-3,
  'μs': 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;

/**
 * Parses a duration; returns an error message instead of throwing (for schema refinements).
 * @internal
 */
export function durationOrError(value: unknown): number | string {
  if (typeof value === 'number') {
    return Number.isFinite(value) && value >= 0 ? value : `expected a non-negative number of milliseconds, got ${value}`;
  }
  if (typeof value !== 'string') return `expected a duration such as "60s" or "500ms", got ${typeof value}`;
  const text = value.trim();
  if (text === '0') return 0;
  if (text === '') return 'expected a duration such as "60s" or "500ms", got an empty string';
  let total = 0;
  PART.lastIndex = 0;
  while (PART.lastIndex < text.length) {
    const m = PART.exec(text);
    if (m === null) return `expected a duration such as "60s", "500ms" or "1m30s", got "${value}"`;
    total += Number(m[1]) * (UNIT_MS[m[2] as string] as number);
  }
  return total;
}

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
