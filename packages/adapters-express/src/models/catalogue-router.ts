import type { GatewayPool } from '../gateway/pool.js';
import type { ModelInfo, ModelRouter, RouteResolution } from './router.js';

/**
 * A list of model names that changes while the gateway runs, e.g. `@switchyard/kubernetes`'s
 * `BaseModelMap`, fed by the IPP model-mapping ConfigMaps (base models and their LoRA adapters).
 * @public
 * @category Multi-model routing
 */
export interface ModelCatalogue {
  /** The names served now. Empty means no catalogue: every name is forwarded. */
  names(): readonly string[];
  /** Calls `listener` after every change of the names. */
  on(event: 'change', listener: () => void): unknown;
  /** Removes a listener added with `on`. */
  off(event: 'change', listener: () => void): unknown;
}

/**
 * Options of {@link CatalogueRouter}.
 * @public
 * @category Multi-model routing
 */
export interface CatalogueRouterOptions {
  /** `created` of `/v1/models` entries, in Unix seconds. @defaultValue 0 */
  readonly created?: number;
}

/**
 * One pool whose model names come from a live {@link ModelCatalogue}. While the catalogue names
 * any model, only those names are served (listed on `/v1/models`, owned by the pool) and any other
 * name is answered `404 MODEL_NOT_FOUND`; while it is empty, every name goes to the pool and
 * `/v1/models` is relayed from the endpoints, as with {@link singlePoolRouter}. A change applies
 * to the next request.
 * @public
 * @category Multi-model routing
 */
export class CatalogueRouter implements ModelRouter {
  readonly #pools: readonly GatewayPool[];
  readonly #resolution: RouteResolution;
  readonly #catalogue: ModelCatalogue;
  readonly #created: number;
  readonly #onChange = (): void => { this.#refresh(); };
  #names: ReadonlySet<string> = new Set();
  #models: readonly ModelInfo[] | undefined;

  constructor(pool: GatewayPool, catalogue: ModelCatalogue, options: CatalogueRouterOptions = {}) {
    this.#pools = [pool];
    this.#resolution = { pool, modelRewrite: undefined };
    this.#catalogue = catalogue;
    this.#created = options.created ?? 0;
    catalogue.on('change', this.#onChange);
    this.#refresh();
  }

  resolve(model: string): RouteResolution | undefined {
    return this.#names.size === 0 || this.#names.has(model) ? this.#resolution : undefined;
  }

  pools(): readonly GatewayPool[] {
    return this.#pools;
  }

  /** The catalogue's names, or undefined (relay the endpoints' lists) while it is empty. */
  listModels(): readonly ModelInfo[] | undefined {
    return this.#models;
  }

  /** Stops following the catalogue (the names stay as they are). */
  close(): void {
    this.#catalogue.off('change', this.#onChange);
  }

  #refresh(): void {
    const names = new Set(this.#catalogue.names());
    const owner = this.#resolution.pool.name;
    this.#names = names;
    this.#models = names.size === 0 ? undefined : [...names].map((id): ModelInfo => ({ id, object: 'model', created: this.#created, owned_by: owner }));
  }
}
