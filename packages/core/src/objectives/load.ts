import { parseAllDocuments } from 'yaml';
import { SwitchyardError } from '../errors/switchyard-error.js';
import { isJsonObject } from '../request/fields.js';
import { resourceFromManifest } from './manifests.js';
import type { InferenceModelRewrite, InferenceObjective } from './types.js';

/**
 * Options of {@link loadResources}, {@link loadObjectives} and {@link loadModelRewrites}.
 * @public
 * @category Objectives and model rewrites
 */
export interface LoadResourcesOptions {
  /**
   * Skip documents of kinds other than InferenceObjective / InferenceModelRewrite (InferencePool,
   * Deployment, ...) instead of rejecting them, so a whole manifest bundle can be loaded.
   * @defaultValue false
   */
  readonly ignoreUnknownKinds?: boolean;
}

/**
 * Everything {@link loadResources} found, in document order.
 * @public
 * @category Objectives and model rewrites
 */
export interface LoadedResources {
  /** InferenceObjective resources. */
  readonly objectives: InferenceObjective[];
  /** InferenceModelRewrite resources. */
  readonly modelRewrites: InferenceModelRewrite[];
}

function invalid(message: string, cause?: unknown): SwitchyardError {
  return new SwitchyardError('CONFIG_INVALID', message, cause === undefined ? {} : { cause });
}

/** Splits text into decoded documents: a JSON value, or YAML documents (`---` separated). */
function decodeDocuments(text: string): unknown[] {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return [JSON.parse(text)];
    } catch {
      // Not JSON after all (YAML flow style); fall through to the YAML parser.
    }
  }
  const out: unknown[] = [];
  parseAllDocuments(text).forEach((doc, i) => {
    const err = doc.errors[0];
    if (err !== undefined) throw invalid(`document[${i}]: invalid YAML: ${err.message.split('\n')[0] ?? ''}`, err);
    out.push(doc.toJS());
  });
  return out;
}

/** Expands arrays and Kubernetes `List` documents into (location, manifest) pairs; drops empty documents. */
function expand(docs: readonly unknown[]): [where: string, manifest: unknown][] {
  const out: [string, unknown][] = [];
  docs.forEach((doc, i) => {
    const where = `document[${i}]`;
    if (doc === null || doc === undefined) return;
    if (Array.isArray(doc)) {
      doc.forEach((item: unknown, j) => out.push([`${where}[${j}]`, item]));
    } else if (isJsonObject(doc) && typeof doc['kind'] === 'string' && doc['kind'].endsWith('List') && Array.isArray(doc['items'])) {
      (doc['items'] as unknown[]).forEach((item, j) => out.push([`${where}.items[${j}]`, item]));
    } else {
      out.push([where, doc]);
    }
  });
  return out;
}

/**
 * Loads InferenceObjective and InferenceModelRewrite manifests from YAML (one or more `---`
 * separated documents) or JSON (one object, an array, or a `List` with `items`). Accepted
 * `apiVersion`s: `llm-d.ai/v1`, `llm-d.ai/v1alpha2`, `inference.networking.x-k8s.io/v1alpha2`.
 * @throws SwitchyardError `CONFIG_INVALID` naming the document (`document[i]`) and field path,
 *   on invalid YAML/JSON, schema errors, duplicate names or (unless ignored) unknown kinds
 * @public
 * @category Objectives and model rewrites
 */
export function loadResources(text: string, options: LoadResourcesOptions = {}): LoadedResources {
  const objectives: InferenceObjective[] = [];
  const modelRewrites: InferenceModelRewrite[] = [];
  const seen = new Map<string, string>();
  for (const [where, manifest] of expand(decodeDocuments(text))) {
    const kind = isJsonObject(manifest) ? manifest['kind'] : undefined;
    // Another kind (a ConfigMap of a `kubectl get -o yaml` dump) is skipped whatever its apiVersion.
    if (options.ignoreUnknownKinds === true && typeof kind === 'string' && kind !== 'InferenceObjective' && kind !== 'InferenceModelRewrite') continue;
    const parsed = resourceFromManifest(manifest, where);
    if (parsed === undefined) {
      if (options.ignoreUnknownKinds === true) continue;
      throw invalid(`${where}.kind: unsupported kind "${String(kind)}" (expected InferenceObjective or InferenceModelRewrite)`);
    }
    const key = `${parsed.kind}/${parsed.resource.namespace ?? ''}/${parsed.resource.name}`;
    const first = seen.get(key);
    if (first !== undefined) throw invalid(`${where}: duplicate ${parsed.kind} "${parsed.resource.name}" (first defined in ${first})`);
    seen.set(key, where);
    if (parsed.kind === 'InferenceObjective') objectives.push(parsed.resource);
    else modelRewrites.push(parsed.resource);
  }
  return { objectives, modelRewrites };
}

/**
 * Loads the InferenceObjectives of a manifest text (model rewrites in it are validated and skipped).
 * @throws SwitchyardError `CONFIG_INVALID`; see {@link loadResources}
 * @public
 * @category Objectives and model rewrites
 */
export function loadObjectives(text: string, options: LoadResourcesOptions = {}): InferenceObjective[] {
  return loadResources(text, options).objectives;
}

/**
 * Loads the InferenceModelRewrites of a manifest text (objectives in it are validated and skipped).
 * @throws SwitchyardError `CONFIG_INVALID`; see {@link loadResources}
 * @public
 * @category Objectives and model rewrites
 */
export function loadModelRewrites(text: string, options: LoadResourcesOptions = {}): InferenceModelRewrite[] {
  return loadResources(text, options).modelRewrites;
}
