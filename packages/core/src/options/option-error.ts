import { SwitchyardError } from '../errors/switchyard-error.js';

/**
 * The error for a bad option value: `CONFIG_INVALID`, its message `<field>: <rule>, got <value>`
 * (`gateway.upstream.maxAttempts: must be an integer ≥ 1, got 0`) and its `field` the option path,
 * so callers and tests can tell which setting to fix without parsing the message.
 * @param field - the option path, scope first (`epp.grpcPort`)
 * @param rule - what the value must be (`must be a positive number`)
 * @param got - the value that was given
 * @public
 * @category Options
 */
export function invalidOption(field: string, rule: string, got: unknown): SwitchyardError {
  return new SwitchyardError('CONFIG_INVALID', `${field}: ${rule}, got ${describeValue(got)}`, { field });
}

/** A short, safe rendering of a bad value (strings quoted, objects by kind: no secrets in logs). */
function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint' || value === undefined || value === null) return String(value);
  if (Array.isArray(value)) return `an array of ${value.length}`;
  return typeof value === 'function' ? 'a function' : `an ${typeof value}`;
}
