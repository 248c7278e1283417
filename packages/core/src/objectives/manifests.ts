import { SwitchyardError } from '../errors/switchyard-error.js';
import { envelopeSchema, formatIssues, modelRewriteSpecSchema, objectiveSpecSchema } from './schemas.js';
import type { InferenceModelRewrite, InferenceObjective, PoolRef } from './types.js';

/**
 * Resource kinds this module understands.
 * @public
 * @category Objectives and model rewrites
 */
export type ResourceKind = 'InferenceObjective' | 'InferenceModelRewrite';

function invalid(message: string): SwitchyardError {
  return new SwitchyardError('CONFIG_INVALID', message);
}

interface Envelope {
  readonly kind: string;
  readonly name: string;
  readonly namespace: string | undefined;
  readonly creationTimestamp: number | undefined;
  readonly spec: unknown;
}

function envelope(doc: unknown, where: string): Envelope {
  const r = envelopeSchema.safeParse(doc);
  if (!r.success) throw invalid(`invalid resource: ${formatIssues(where, r.error.issues)}`);
  const { kind, metadata, spec } = r.data;
  const ts = metadata.creationTimestamp === undefined ? undefined : new Date(metadata.creationTimestamp).getTime();
  return { kind, name: metadata.name, namespace: metadata.namespace, creationTimestamp: ts, spec };
}

function cleanRef(ref: { name: string; group?: string | undefined; kind?: string | undefined }): PoolRef {
  return { name: ref.name, ...(ref.group === undefined ? {} : { group: ref.group }), ...(ref.kind === undefined ? {} : { kind: ref.kind }) };
}

function withMeta<T extends object>(base: T, env: Envelope): T & { namespace?: string; creationTimestamp?: number } {
  return {
    ...base,
    ...(env.namespace === undefined ? {} : { namespace: env.namespace }),
    ...(env.creationTimestamp === undefined ? {} : { creationTimestamp: env.creationTimestamp }),
  };
}

function objectiveFrom(env: Envelope, where: string): InferenceObjective {
  const r = objectiveSpecSchema.safeParse(env.spec ?? {});
  if (!r.success) throw invalid(`invalid InferenceObjective "${env.name}": ${formatIssues(`${where}.spec`, r.error.issues)}`);
  const refs = r.data.poolRefs ?? (r.data.poolRef === undefined ? undefined : [r.data.poolRef]);
  const base: InferenceObjective = { name: env.name, priority: r.data.priority ?? 0, ...(refs === undefined ? {} : { poolRefs: refs.map(cleanRef) }) };
  return withMeta(base, env);
}

function modelRewriteFrom(env: Envelope, where: string): InferenceModelRewrite {
  const r = modelRewriteSpecSchema.safeParse(env.spec);
  if (!r.success) throw invalid(`invalid InferenceModelRewrite "${env.name}": ${formatIssues(`${where}.spec`, r.error.issues)}`);
  const rules = r.data.rules.map((rule) => ({
    matches: (rule.matches ?? []).map((m) => m.model.value),
    targets: (rule.targets ?? []).map((t) => (t.weight === undefined ? { modelRewrite: t.modelRewrite } : { modelRewrite: t.modelRewrite, weight: t.weight })),
  }));
  const base: InferenceModelRewrite = { name: env.name, rules, ...(r.data.poolRef === undefined ? {} : { poolRef: cleanRef(r.data.poolRef) }) };
  return withMeta(base, env);
}

/**
 * A decoded manifest of a known kind.
 * @public
 * @category Objectives and model rewrites
 */
export type ParsedResource = { readonly kind: 'InferenceObjective'; readonly resource: InferenceObjective } | { readonly kind: 'InferenceModelRewrite'; readonly resource: InferenceModelRewrite };

/**
 * Validates one decoded manifest (e.g. from a Kubernetes watch) and converts it. Returns
 * undefined for a well-formed resource of another kind.
 * @param where - location named in errors, e.g. `document[2]`
 * @throws SwitchyardError `CONFIG_INVALID` naming `where` and the field path
 * @public
 * @category Objectives and model rewrites
 */
export function resourceFromManifest(doc: unknown, where = 'resource'): ParsedResource | undefined {
  const env = envelope(doc, where);
  if (env.kind === 'InferenceObjective') return { kind: 'InferenceObjective', resource: objectiveFrom(env, where) };
  if (env.kind === 'InferenceModelRewrite') return { kind: 'InferenceModelRewrite', resource: modelRewriteFrom(env, where) };
  return undefined;
}

/**
 * Validates and converts an `InferenceObjective` manifest.
 * @throws SwitchyardError `CONFIG_INVALID` on a bad manifest or another kind
 * @public
 * @category Objectives and model rewrites
 */
export function objectiveFromManifest(doc: unknown, where = 'resource'): InferenceObjective {
  const r = resourceFromManifest(doc, where);
  if (r?.kind !== 'InferenceObjective') throw invalid(`${where}.kind: expected InferenceObjective`);
  return r.resource;
}

/**
 * Validates and converts an `InferenceModelRewrite` manifest.
 * @throws SwitchyardError `CONFIG_INVALID` on a bad manifest or another kind
 * @public
 * @category Objectives and model rewrites
 */
export function modelRewriteFromManifest(doc: unknown, where = 'resource'): InferenceModelRewrite {
  const r = resourceFromManifest(doc, where);
  if (r?.kind !== 'InferenceModelRewrite') throw invalid(`${where}.kind: expected InferenceModelRewrite`);
  return r.resource;
}
