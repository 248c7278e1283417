import type { GatewayPool } from '../gateway/pool.js';

/**
 * Where one request goes: a pool, and the model name that pool must serve when it differs from
 * the client's (weighted splits may rename, e.g. a canary serving a new checkpoint).
 * @public
 * @category Multi-model routing
 */
export interface RouteResolution {
  /** Pool that serves the request. */
  readonly pool: GatewayPool;
  /** Model name to rewrite the request to, when the route renames it. */
  readonly modelRewrite: string | undefined;
}

/**
 * An entry of `/v1/models` (OpenAI list format).
 * @public
 * @category Multi-model routing
 */
export interface ModelInfo {
  /** Model or LoRA adapter name clients send. */
  readonly id: string;
  /** Always `model`. */
  readonly object: 'model';
  /** Unix seconds; the registry's creation time. */
  readonly created: number;
  /** Pool name (or `split` for weighted routes). */
  readonly owned_by: string;
}

/**
 * Maps the model a client asked for to a pool.
 * @public
 * @category Multi-model routing
 */
export interface ModelRouter {
  /** The route for `model`, or undefined when no pool serves it (the gateway answers 404). */
  resolve(model: string): RouteResolution | undefined;
  /** Every pool, for readiness, metrics and shutdown. */
  pools(): readonly GatewayPool[];
  /** Models to list on `/v1/models`, or undefined to relay the endpoints' own `/v1/models`. */
  listModels(): readonly ModelInfo[] | undefined;
}

/**
 * A router with one pool and no model registry: every model name goes to that pool, and
 * `/v1/models` is answered from the endpoints themselves.
 * @public
 * @category Multi-model routing
 */
export function singlePoolRouter(pool: GatewayPool): ModelRouter {
  const resolution: RouteResolution = { pool, modelRewrite: undefined };
  const pools = [pool];
  return {
    resolve: () => resolution,
    pools: () => pools,
    listModels: () => undefined,
  };
}
