import { z } from 'zod';

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
 * Parses a Go-style duration (`300s`, `1m30s`, `250ms`, `1.5s`, `0`) to milliseconds; undefined when
 * the text is not one. The one duration parser of Switchyard: every config field that takes a
 * duration goes through it.
 * @public
 * @category Configuration
 */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '0') return 0;
  if (trimmed === '') return undefined;
  let total = 0;
  PART.lastIndex = 0;
  while (PART.lastIndex < trimmed.length) {
    const at = PART.lastIndex;
    const m = PART.exec(trimmed);
    if (m === null || m.index !== at) return undefined;
    total += Number(m[1]) * (UNIT_MS[m[2] ?? ''] ?? Number.NaN);
  }
  return Number.isFinite(total) ? total : undefined;
}

/**
 * Parses a duration config value: a Go-style string, or a number of **milliseconds** (our
 * extension; llm-d accepts strings only). Returns an error message instead of throwing, so schema
 * refinements can report it under the field's path.
 * @public
 * @category Configuration
 */
export function durationOrError(value: unknown): number | string {
  if (typeof value === 'number') {
    return Number.isFinite(value) && value >= 0 ? value : `expected a non-negative number of milliseconds, got ${value}`;
  }
  if (typeof value !== 'string') return `expected a duration such as "60s" or "500ms", got ${typeof value}`;
  const ms = parseDuration(value);
  return ms ?? `expected a duration such as "200ms", "1.5s" or "1m30s", got "${value}"`;
}

/**
 * Zod schema of a duration parameter: a Go-style string (`300s`) or a number of milliseconds; the
 * output is milliseconds.
 * @public
 * @category Configuration
 */
export const durationSchema = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const ms = durationOrError(v);
  if (typeof ms === 'string') {
    ctx.addIssue({ code: 'custom', message: ms });
    return z.NEVER;
  }
  return ms;
});
