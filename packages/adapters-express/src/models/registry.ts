import { SwitchyardError } from '@switchyard/core';
import type { GatewayPool } from '../gateway/pool.js';
import type { ModelInfo, ModelRouter, RouteResolution } from './router.js';

/**
 * One branch of a weighted split.
 * @public
 * @category Multi-model routing
 */
export interface WeightedTarget {
  /** Name of the pool that serves this share. */
  readonly pool: string;
  /** Relative weight (> 0); shares are `weight / Σ weights`. */
  readonly weight: number;
  /** Model name the pool serves this share under. @default the route's name */
  readonly model?: string | undefined;
}

/**
 * A model name served by a weighted split across pools (canary rollouts, migrations).
 * @public
 * @category Multi-model routing
 */
export interface ModelRoute {
  /** Model name clients send. */
  readonly name: string;
  /** Where its requests go, by weight. */
  readonly split: readonly WeightedTarget[];
}

/**
 * Options of {@link ModelRegistry}.
 * @public
 * @category Multi-model routing
 */
export interface ModelRegistryOptions {
  /** Pools; each lists the model and LoRA adapter names it serves in `models`. */
  readonly pools: readonly GatewayPool[];
  /** Weighted splits. */
  readonly routes?: readonly ModelRoute[];
  /** Random source in [0, 1) for splits. @default Math.random */
  readonly random?: () => number;
  /** `created` of `/v1/models` entries, in Unix seconds. @default 0 */
  readonly created?: number;
}

interface SplitTable {
  readonly total: number;
  readonly cumulative: readonly number[];
  readonly resolutions: readonly RouteResolution[];
}

const invalid = (message: string): SwitchyardError => new SwitchyardError('CONFIG_INVALID', message);

/**
 * Maps model and LoRA adapter names to pools. Names are globally unique: a name belongs to exactly
 * one pool or one weighted route, and the constructor rejects duplicates, empty names, unknown
 * pools and non-positive weights with `CONFIG_INVALID`.
 * @public
 * @category Multi-model routing
 */
export class ModelRegistry implements ModelRouter {
  readonly #pools: readonly GatewayPool[];
  readonly #direct = new Map<string, RouteResolution>();
  readonly #splits = new Map<string, SplitTable>();
  readonly #models: readonly ModelInfo[];
  readonly #random: () => number;

  constructor(options: ModelRegistryOptions) {
    this.#random = options.random ?? Math.random;
    this.#pools = options.pools;
    const created = options.created ?? 0;
    const byName = new Map<string, GatewayPool>();
    const owner = new Map<string, string>();
    const models: ModelInfo[] = [];
    for (const [i, pool] of options.pools.entries()) {
      if (pool.name === '') throw invalid(`pools[${i}].name: must not be empty`);
      if (byName.has(pool.name)) throw invalid(`pools[${i}].name: duplicate pool name "${pool.name}"`);
      byName.set(pool.name, pool);
      for (const [j, model] of (pool.models ?? []).entries()) {
        if (model === '') throw invalid(`pools[${i}].models[${j}]: must not be empty`);
        const prior = owner.get(model);
        if (prior !== undefined) throw invalid(`pools[${i}].models[${j}]: model "${model}" is already served by ${prior}; model names must be globally unique`);
        owner.set(model, `pool "${pool.name}"`);
        this.#direct.set(model, { pool, modelRewrite: undefined });
        models.push({ id: model, object: 'model', created, owned_by: pool.name });
      }
    }
    for (const [i, route] of (options.routes ?? []).entries()) {
      const where = `routes[${i}]`;
      if (route.name === '') throw invalid(`${where}.name: must not be empty`);
      const prior = owner.get(route.name);
      if (prior !== undefined) throw invalid(`${where}.name: model "${route.name}" is already served by ${prior}; model names must be globally unique`);
      owner.set(route.name, `route ${where}`);
      if (route.split.length === 0) throw invalid(`${where}.split: needs at least one target`);
      let total = 0;
      const cumulative: number[] = [];
      const resolutions: RouteResolution[] = [];
      for (const [j, target] of route.split.entries()) {
        const pool = byName.get(target.pool);
        if (pool === undefined) throw invalid(`${where}.split[${j}].pool: unknown pool "${target.pool}"`);
        if (!Number.isFinite(target.weight) || target.weight <= 0) throw invalid(`${where}.split[${j}].weight: must be a positive number, got ${String(target.weight)}`);
        const model = target.model ?? route.name;
        const servedBy = this.#direct.get(model)?.pool;
        if (servedBy !== undefined && servedBy !== pool) {
          throw invalid(`${where}.split[${j}].model: "${model}" is served by pool "${servedBy.name}", not "${pool.name}"`);
        }
        total += target.weight;
        cumulative.push(total);
        resolutions.push({ pool, modelRewrite: model === route.name ? undefined : model });
      }
      this.#splits.set(route.name, { total, cumulative, resolutions });
      models.push({ id: route.name, object: 'model', created, owned_by: 'split' });
    }
    this.#models = models;
  }

  /** The pool (and rename) for `model`; splits draw by weight on every call. */
  resolve(model: string): RouteResolution | undefined {
    const direct = this.#direct.get(model);
    if (direct !== undefined) return direct;
    const split = this.#splits.get(model);
    if (split === undefined) return undefined;
    const x = this.#random() * split.total;
    const { cumulative, resolutions } = split;
    for (let i = 0; i < cumulative.length; i++) if (x < (cumulative[i] as number)) return resolutions[i];
    return resolutions[resolutions.length - 1];
  }

  /** Every pool. */
  pools(): readonly GatewayPool[] {
    return this.#pools;
  }

  /** Every model, LoRA adapter and route name, in declaration order. */
  listModels(): readonly ModelInfo[] {
    return this.#models;
  }
}
