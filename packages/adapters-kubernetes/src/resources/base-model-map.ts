import { EventEmitter } from 'eventemitter3';
import { parse } from 'yaml';
import type { ConfigMapObject } from './types.js';

/**
 * Label that marks an IPP model-mapping ConfigMap. @public
 * @category Resource watches
 */
export const IPP_MANAGED_LABEL = 'inference.llm-d.ai/ipp-managed';

/**
 * Header IPP's base-model extractor sets on every request (empty when the model is unknown). @public
 * @category Resource watches
 */
export const BASE_MODEL_HEADER = 'x-gateway-base-model-name';

/**
 * One IPP model-mapping ConfigMap: a base model and the LoRA adapters served on it.
 * @public
 * @category Resource watches
 */
export interface ModelMapping {
  readonly baseModel: string;
  readonly adapters: readonly string[];
}

/**
 * Reads an IPP ConfigMap's `data`: `baseModel` (required, trimmed) and `adapters` (a YAML list of
 * strings, trimmed, blanks skipped), as IPP's base-model extractor does.
 * @returns the mapping, or an error message naming the bad field
 * @public
 * @category Resource watches
 */
export function parseModelMapping(cm: ConfigMapObject): ModelMapping | string {
  const where = `ConfigMap ${cm.metadata?.namespace ?? ''}/${cm.metadata?.name ?? ''}`;
  const baseModel = (cm.data?.baseModel ?? '').trim();
  if (baseModel === '') return `${where}: data.baseModel: required`;
  const raw = cm.data?.adapters;
  if (raw === undefined || raw.trim() === '') return { baseModel, adapters: [] };
  let list: unknown;
  try {
    list = parse(raw);
  } catch (err) {
    return `${where}: data.adapters: not YAML (${err instanceof Error ? err.message.split('\n')[0] ?? '' : String(err)})`;
  }
  if (!Array.isArray(list)) return `${where}: data.adapters: expected a YAML list of adapter names`;
  const adapters: string[] = [];
  for (const [i, a] of list.entries()) {
    if (typeof a !== 'string' && typeof a !== 'number') return `${where}: data.adapters[${String(i)}]: expected a string`;
    const name = String(a).trim();
    if (name !== '') adapters.push(name);
  }
  return { baseModel, adapters };
}

/**
 * Events of {@link BaseModelMap}. @public
 * @category Resource watches
 */
export interface BaseModelMapEvents {
  /** The mappings changed. */
  change: [];
}

/**
 * Adapter → base-model lookups fed by IPP ConfigMaps. Several ConfigMaps may name one base model
 * (it stays known while any of them does); adapter names are global, so an adapter claimed by two
 * base models keeps the ConfigMap seen first and the conflict is reported.
 * @public
 * @category Resource watches
 */
export class BaseModelMap extends EventEmitter<BaseModelMapEvents> {
  readonly #sources = new Map<string, ModelMapping>();
  #adapters = new Map<string, string>();
  #bases = new Set<string>();
  #conflicts: string[] = [];

  /** Sets (or replaces) the mapping of one ConfigMap, keyed `<namespace>/<name>`. */
  set(source: string, mapping: ModelMapping): void {
    this.#sources.set(source, mapping);
    this.#rebuild();
  }

  /** Forgets one ConfigMap's mapping (deleted, unlabelled or invalid now). */
  delete(source: string): void {
    if (this.#sources.delete(source)) this.#rebuild();
  }

  /** The base model of `model`: itself for a base model, its base for an adapter, else `''`. */
  baseModelOf(model: string): string {
    if (this.#bases.has(model)) return model;
    return this.#adapters.get(model) ?? '';
  }

  /** Every known base model and adapter name. */
  names(): string[] {
    return [...this.#bases.keys(), ...this.#adapters.keys()];
  }

  /** Adapter names claimed by two base models (the later claim is ignored), as messages. */
  get conflicts(): readonly string[] {
    return this.#conflicts;
  }

  #rebuild(): void {
    const adapters = new Map<string, string>();
    const owner = new Map<string, string>();
    const bases = new Set<string>();
    const conflicts: string[] = [];
    for (const [source, m] of this.#sources) {
      bases.add(m.baseModel);
      for (const a of m.adapters) {
        const prior = adapters.get(a);
        if (prior !== undefined && prior !== m.baseModel) conflicts.push(`adapter "${a}" of ${source} is already served by base model "${prior}" (${owner.get(a) ?? ''})`);
        else if (prior === undefined) {
          adapters.set(a, m.baseModel);
          owner.set(a, source);
        }
      }
    }
    this.#adapters = adapters;
    this.#bases = bases;
    this.#conflicts = conflicts;
    this.emit('change');
  }
}
