import type { PluginDefinition } from '../registry/types.js';
import { configError } from './issues.js';

/**
 * A parameter llm-d accepts that Switchyard loads without acting on it: the config still loads,
 * and the loader reports it (once, in {@link LoadedConfig.notActedOn}), so operators see which
 * settings of their llm-d config have no effect here.
 * @public
 * @category Configuration
 */
export interface NotActedOnParameter {
  /** Plugin instance name. */
  readonly plugin: string;
  /** Plugin type. */
  readonly type: string;
  /** Parameter path inside `parameters`, e.g. `requestTimeout` or `indexerConfig.tokenizersPoolConfig`. */
  readonly parameter: string;
  /** Why it has no effect. */
  readonly reason: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Removes the dotted `path` from `obj` (copying what it changes); true when it was present. */
function without(obj: Record<string, unknown>, path: readonly string[]): { value: Record<string, unknown>; removed: boolean } {
  const [head, ...rest] = path as [string, ...string[]];
  if (!(head in obj)) return { value: obj, removed: false };
  if (rest.length === 0) {
    const { [head]: _dropped, ...kept } = obj;
    return { value: kept, removed: true };
  }
  const inner = obj[head];
  if (!isRecord(inner)) return { value: obj, removed: false };
  const r = without(inner, rest);
  return r.removed ? { value: { ...obj, [head]: r.value }, removed: true } : { value: obj, removed: false };
}

/**
 * Outcome of {@link parsePluginParameters}.
 * @public
 * @category Configuration
 */
export type ParsedParameters =
  | { readonly success: true; readonly data: unknown; readonly notActedOn: readonly { readonly parameter: string; readonly reason: string }[] }
  | { readonly success: false; readonly error: Error };

/**
 * Validates a plugin's `parameters` the way the config loader does: parameters the definition
 * lists in `notActedOn` are taken out (and reported) before the strict schema sees the rest;
 * an unknown parameter is an error naming its path, with a did-you-mean suggestion when one is
 * close. `path` prefixes the error's paths (default `parameters`).
 * @public
 * @category Configuration
 */
export function parsePluginParameters(def: PluginDefinition, raw: unknown, path: readonly PropertyKey[] = ['parameters']): ParsedParameters {
  let kept: unknown = raw ?? {};
  const notActedOn: { parameter: string; reason: string }[] = [];
  if (def.notActedOn !== undefined && isRecord(kept)) {
    let obj = kept;
    for (const [parameter, reason] of Object.entries(def.notActedOn)) {
      const r = without(obj, parameter.split('.'));
      if (!r.removed) continue;
      obj = r.value;
      notActedOn.push({ parameter, reason });
    }
    kept = obj;
  }
  const parsed = (def.parameters).safeParse(kept);
  if (!parsed.success) {
    // Accepted-but-ignored names are valid spellings too: suggest them for near misses.
    const extra = (p: readonly PropertyKey[]): string[] => {
      const prefix = p.map(String).join('.');
      return Object.keys(def.notActedOn ?? {}).flatMap((k) => {
        const parts = k.split('.');
        return parts.slice(0, -1).join('.') === prefix ? [parts[parts.length - 1] as string] : [];
      });
    };
    return { success: false, error: configError(parsed.error.issues, kept, path, def.parameters, extra) };
  }
  return { success: true, data: parsed.data, notActedOn };
}

/**
 * The log line for one accepted-not-acted-on parameter.
 * @public
 */
export function formatNotActedOn(p: NotActedOnParameter): string {
  return `config: plugin "${p.plugin}" (type ${p.type}) parameter ${p.parameter} is accepted but not acted on: ${p.reason}`;
}
