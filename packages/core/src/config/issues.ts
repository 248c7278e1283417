import type { z } from 'zod';
import { SwitchyardError } from '../errors/switchyard-error.js';
import { closest, knownKeys } from './suggest.js';

/**
 * Formats a config path the way users write it: `plugins[2].parameters.threshold`.
 * @internal
 */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

/** JSON-ish type name of a value, as a config author would say it. */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  switch (issue.code) {
    case 'invalid_type': {
      const got = valueAt(input, issue.path);
      return got === undefined ? `required field missing (expected ${issue.expected})` : `expected ${issue.expected}, got ${describeType(got)}`;
    }
    case 'invalid_value': {
      const got = valueAt(input, issue.path);
      const expected = issue.values.map((v) => JSON.stringify(v)).join(', ');
      return got === undefined ? `required field missing (expected ${expected})` : `expected ${issue.values.length === 1 ? expected : `one of ${expected}`}, got ${JSON.stringify(got)}`;
    }
    default:
      return issue.message;
  }
}

/** True when `path` points into a plugin's `parameters` (`plugins[i].parameters...`). */
function inPluginParameters(path: readonly PropertyKey[]): boolean {
  return path[0] === 'plugins' && typeof path[1] === 'number' && path[2] === 'parameters';
}

/**
 * Turns zod issues into one `CONFIG_INVALID` error whose message lists every problem as
 * `path: problem` (paths prefixed with `prefix`, e.g. `plugins[2].parameters`). An unknown key is
 * reported at its own path, one line per key: `plugins[3].parameters.matchLenghtWeight: unknown
 * parameter` inside plugin parameters, `schedulingProfiles[0].plugin: unknown field` elsewhere.
 * With the `schema` that produced the issues, an unknown key close to a known one gets a
 * suggestion: `unknown parameter (did you mean "matchLengthWeight"?)`; `extraKeys` adds names
 * the schema does not list but the caller accepts.
 * @internal
 */
export function configError(
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
  prefix: readonly PropertyKey[] = [],
  schema?: z.core.$ZodType,
  extraKeys: (path: readonly PropertyKey[]) => readonly string[] = () => [],
): SwitchyardError {
  const lines: string[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      const what = inPluginParameters(path) ? 'unknown parameter' : 'unknown field';
      const known = schema === undefined ? [] : [...knownKeys(schema, issue.path), ...extraKeys(issue.path)];
      for (const key of issue.keys) {
        const hint = closest(key, known);
        lines.push(`${formatPath([...path, key])}: ${what}${hint === undefined ? '' : ` (did you mean "${hint}"?)`}`);
      }
      continue;
    }
    const where = formatPath(path);
    lines.push(`${where === '' ? '(document)' : where}: ${describeIssue(issue, input)}`);
  }
  return new SwitchyardError('CONFIG_INVALID', lines.join('; '));
}

/**
 * A `CONFIG_INVALID` error for one path.
 * @internal
 */
export function invalid(path: readonly PropertyKey[], problem: string): SwitchyardError {
  const where = formatPath(path);
  return new SwitchyardError('CONFIG_INVALID', `${where === '' ? '(document)' : where}: ${problem}`);
}
