/**
 * Go-style duration strings as used by llm-d configs (`"200ms"`, `"1.5s"`, `"1m30s"`), or a plain
 * number of milliseconds. Kept private to the saturation folder: the detectors need only this one
 * parameter kind, and a shared parser belongs with the config loader.
 */

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
 * Parses a non-negative duration into milliseconds; returns an error message instead of throwing
 * so zod refinements can report it under the field's path.
 */
export function parseDurationMs(value: string | number): number | string {
  if (typeof value === 'number') {
    return Number.isFinite(value) && value >= 0 ? value : `expected a non-negative number of milliseconds, got ${value}`;
  }
  const text = value.trim();
  if (text === '0') return 0;
  if (text === '') return 'expected a duration such as "200ms" or "1s", got an empty string';
  let total = 0;
  PART.lastIndex = 0;
  while (PART.lastIndex < text.length) {
    const at = PART.lastIndex;
    const m = PART.exec(text);
    if (m === null || m.index !== at) {
      return `expected a duration such as "200ms", "1.5s" or "1m30s", got "${value}"`;
    }
    total += Number(m[1]) * (UNIT_MS[m[2] as string] as number);
  }
  return total;
}
