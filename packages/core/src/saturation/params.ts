import { z } from 'zod';
import { SwitchyardError } from '../errors/switchyard-error.js';
import { durationOrError } from '../config/duration.js';

/**
 * A strictly positive duration, given as a Go-style string (`"200ms"`) or milliseconds; parses to
 * milliseconds.
 */
export const positiveDurationMs = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const ms = durationOrError(value);
  if (typeof ms === 'string') {
    ctx.addIssue({ code: 'custom', message: ms });
    return z.NEVER;
  }
  if (ms <= 0) {
    ctx.addIssue({ code: 'custom', message: `must be strictly positive, got ${JSON.stringify(value)}` });
    return z.NEVER;
  }
  return ms;
});

/** Renders a zod issue path the way config errors name fields: `a.b[2].c`. */
export function formatIssuePath(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix;
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

/**
 * Validates factory parameters with the same schema the config loader uses, so programmatic and
 * config-driven construction fail the same way.
 * @throws SwitchyardError `CONFIG_INVALID` naming the first bad field
 */
export function parseParams<T>(schema: z.ZodType<T>, raw: unknown, where: string): T {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = formatIssuePath(where, issue?.path ?? []);
  throw new SwitchyardError('CONFIG_INVALID', `${path}: ${issue?.message ?? 'invalid parameters'}`);
}
