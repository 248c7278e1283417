import type { InferenceObjective } from './types.js';

/**
 * Options of {@link ObjectiveStore}.
 * @public
 * @category Objectives and model rewrites
 */
export interface ObjectiveStoreOptions {
  /**
   * Only keep objectives that apply to this pool (listed in `poolRefs`, or with no `poolRefs`).
   * @defaultValue undefined: keep every objective
   */
  readonly poolName?: string;
}

/**
 * The InferenceObjectives known to one picker, looked up by name from the
 * `x-llm-d-inference-objective` header. Unknown or absent names get priority 0, as in llm-d.
 * @example
 * ```ts
 * const store = new ObjectiveStore(loadObjectives(yamlText));
 * store.priorityOf(readClassificationHeader(req.headers, 'objective')); // 100, 0, -10, ...
 * ```
 * @public
 * @category Objectives and model rewrites
 */
export class ObjectiveStore {
  readonly #byName = new Map<string, InferenceObjective>();
  readonly #poolName: string | undefined;

  /** @param initial - objectives to start with (filtered by `options.poolName`) */
  constructor(initial: Iterable<InferenceObjective> = [], options: ObjectiveStoreOptions = {}) {
    this.#poolName = options.poolName;
    for (const o of initial) this.set(o);
  }

  /**
   * Adds or replaces an objective. Returns false (and removes any previous version) when the
   * objective does not apply to the store's pool.
   */
  set(objective: InferenceObjective): boolean {
    if (!this.#applies(objective)) {
      this.#byName.delete(objective.name);
      return false;
    }
    this.#byName.set(objective.name, objective);
    return true;
  }

  /** Removes an objective; returns false when it was not there. */
  delete(name: string): boolean {
    return this.#byName.delete(name);
  }

  /** Objective by name. */
  get(name: string): InferenceObjective | undefined {
    return this.#byName.get(name);
  }

  /** All objectives, in insertion order. */
  list(): InferenceObjective[] {
    return [...this.#byName.values()];
  }

  /** Number of objectives. */
  get size(): number {
    return this.#byName.size;
  }

  /** Priority of the named objective; 0 when the name is absent, empty or unknown. */
  priorityOf(name: string | undefined): number {
    if (name === undefined || name === '') return 0;
    return this.#byName.get(name)?.priority ?? 0;
  }

  #applies(objective: InferenceObjective): boolean {
    if (this.#poolName === undefined || objective.poolRefs === undefined || objective.poolRefs.length === 0) return true;
    return objective.poolRefs.some((r) => r.name === this.#poolName);
  }
}
