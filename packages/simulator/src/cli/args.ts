import { SwitchyardError } from '@switchyard/core';

/** A parsed flag value as `node:util` parseArgs returns it. */
type Raw = string | boolean | (string | boolean)[] | undefined;

const flagValue = (v: Raw): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * Reads an integer flag, naming the flag on error.
 * @internal
 */
export function intFlag(values: Record<string, Raw>, name: string, fallback: number, min = 0): number {
  const raw = flagValue(values[name]);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new SwitchyardError('CONFIG_INVALID', `--${name}: expected an integer >= ${min}, got "${raw}"`);
  return n;
}

/**
 * Reads a positive number flag, naming the flag on error.
 * @internal
 */
export function numberFlag(values: Record<string, Raw>, name: string, fallback: number): number {
  const raw = flagValue(values[name]);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new SwitchyardError('CONFIG_INVALID', `--${name}: expected a positive number, got "${raw}"`);
  return n;
}

/**
 * Reads a string flag restricted to `allowed` values.
 * @internal
 */
export function choiceFlag<T extends string>(values: Record<string, Raw>, name: string, allowed: readonly T[], fallback: T): T {
  const raw = flagValue(values[name]);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) throw new SwitchyardError('CONFIG_INVALID', `--${name}: expected one of ${allowed.join(', ')}, got "${raw}"`);
  return raw as T;
}

/**
 * Reads a comma-separated list flag.
 * @internal
 */
export function listFlag(values: Record<string, Raw>, name: string): string[] {
  const raw = flagValue(values[name]);
  return raw === undefined ? [] : raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

/**
 * Reads an optional string flag.
 * @internal
 */
export function stringFlag(values: Record<string, Raw>, name: string): string | undefined {
  return flagValue(values[name]);
}
