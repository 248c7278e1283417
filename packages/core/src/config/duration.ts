import { z } from 'zod';

const UNIT_MS: Readonly<Record<string, number>> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Parses a Go-style duration (`300s`, `1m30s`, `250ms`, `0s`) to milliseconds; undefined when the
 * text is not one.
 * @public
 */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '0') return 0;
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  for (let m = re.exec(trimmed); m !== null; m = re.exec(trimmed)) {
    total += Number(m[1]) * (UNIT_MS[m[2] ?? ''] ?? Number.NaN);
    matched = re.lastIndex;
  }
  return matched === trimmed.length && matched > 0 && Number.isFinite(total) ? total : undefined;
}

/**
 * Zod schema of a duration parameter: a Go-style string (`300s`) or a number of seconds; the
 * output is milliseconds.
 * @public
 */
export const durationSchema = z.union([z.number().min(0), z.string()]).transform((v, ctx) => {
  if (typeof v === 'number') return v * 1000;
  const ms = parseDuration(v);
  if (ms === undefined) {
    ctx.addIssue({ code: 'custom', message: `expected a duration like "300s" or "1m30s", got "${v}"` });
    return z.NEVER;
  }
  return ms;
});
