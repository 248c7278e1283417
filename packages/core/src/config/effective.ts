import { stringify } from 'yaml';
import { isDeepStrictEqual } from 'node:util';
import type { Instance } from './producers.js';
import type { ProfileDocument } from './schema.js';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The parameters to print for an instance, chosen so the printed config loads back identically:
 * the defaulted values with what the user wrote on top (a duration stays `"30s"` rather than
 * `30000`), else the defaulted values alone, else the values as written.
 * @internal
 */
export function printableParameters(inst: Instance): unknown {
  const printed = validatedParameters(inst);
  // Accepted-not-acted-on parameters are printed as written, so the effective config shows them.
  if ((inst.notActedOn ?? []).length === 0 || !isRecord(inst.raw) || !isRecord(printed)) return printed;
  let out: Record<string, unknown> = printed;
  for (const { parameter } of inst.notActedOn ?? []) out = withPath(out, parameter.split('.'), inst.raw);
  return out;
}

/** `target` with the value `source` has at `path` copied in. */
function withPath(target: Record<string, unknown>, path: readonly string[], source: Record<string, unknown>): Record<string, unknown> {
  const [head, ...rest] = path as [string, ...string[]];
  if (!(head in source)) return target;
  if (rest.length === 0) return { ...target, [head]: source[head] };
  const from = source[head];
  if (!isRecord(from)) return target;
  const into = target[head];
  return { ...target, [head]: withPath(isRecord(into) ? into : {}, rest, from) };
}

function validatedParameters(inst: Instance): unknown {
  if (inst.def === undefined) return undefined;
  if (isRecord(inst.params) && isRecord(inst.raw)) {
    const merged = { ...inst.params, ...inst.raw };
    const parsed = inst.def.parameters.safeParse(merged);
    if (parsed.success && isDeepStrictEqual(parsed.data, inst.params)) return merged;
  }
  const again = inst.def.parameters.safeParse(inst.params);
  if (again.success && isDeepStrictEqual(again.data, inst.params)) return inst.params;
  return inst.raw ?? {};
}

/**
 * Fields of the effective document.
 * @internal
 */
export interface EffectiveParts {
  readonly apiVersion: string;
  readonly featureGates: readonly string[];
  readonly instances: readonly Instance[];
  readonly profiles: readonly ProfileDocument[];
  readonly dataLayer: Record<string, unknown> | undefined;
  readonly flowControl: Record<string, unknown> | undefined;
  readonly requestHandler: Record<string, unknown> | undefined;
  readonly switchyard?: Record<string, unknown> | undefined;
}

/**
 * The effective configuration as a plain `EndpointPickerConfig` object: every plugin (including
 * auto-created ones) with its parameters, every profile with explicit weights and picker.
 * @internal
 */
export function effectiveDocument(parts: EffectiveParts): Record<string, unknown> {
  const doc: Record<string, unknown> = { apiVersion: parts.apiVersion, kind: 'EndpointPickerConfig' };
  if (parts.featureGates.length > 0) doc.featureGates = [...parts.featureGates];
  doc.plugins = parts.instances
    .filter((i) => i.def !== undefined)
    .map((i) => {
      const params = printableParameters(i);
      const empty = params === undefined || (typeof params === 'object' && params !== null && Object.keys(params).length === 0);
      return { name: i.plugin.name, type: i.plugin.type, ...(empty ? {} : { parameters: params }) };
    });
  doc.schedulingProfiles = parts.profiles.map((p) => ({ name: p.name, plugins: p.plugins.map((r) => (r.weight === undefined ? { pluginRef: r.pluginRef } : { ...r })) }));
  if (parts.dataLayer !== undefined) doc.dataLayer = parts.dataLayer;
  if (parts.flowControl !== undefined) doc.flowControl = parts.flowControl;
  if (parts.requestHandler !== undefined) doc.requestHandler = parts.requestHandler;
  if (parts.switchyard !== undefined) doc.switchyard = withoutSecrets(parts.switchyard);
  return doc;
}

/**
 * The `switchyard` section with the Redis URL's password masked: the effective configuration is
 * logged at startup, and a `redis://user:password@host` URL must not reach the logs.
 */
function withoutSecrets(section: Record<string, unknown>): Record<string, unknown> {
  const shared = section.sharedState;
  if (!isRecord(shared) || typeof shared.redisUrl !== 'string') return section;
  let masked = shared.redisUrl;
  try {
    const url = new URL(shared.redisUrl);
    if (url.password !== '') {
      url.password = '***';
      masked = url.toString();
    }
  } catch {
    // Not a URL (validation reports it elsewhere): keep nothing of it that could be a secret.
    masked = '***';
  }
  return { ...section, sharedState: { ...shared, redisUrl: masked } };
}

/**
 * YAML text of an effective document.
 * @internal
 */
export function printYaml(doc: Record<string, unknown>): string {
  return stringify(doc, { lineWidth: 0 });
}
