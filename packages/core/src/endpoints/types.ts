/**
 * Model-server engine kinds whose metrics Switchyard understands.
 * @public
 * @category Endpoints and the pool
 */
export type EngineType = 'vllm' | 'sglang' | 'trtllm-serve' | 'triton-tensorrt-llm';

/**
 * The latest model-server metrics of one endpoint, normalised across engines.
 * @public
 * @category Endpoints and the pool
 */
export interface EndpointMetrics {
  /** Requests waiting in the engine's queue. */
  readonly waitingQueueSize: number;
  /** Requests the engine is running. */
  readonly runningRequestsSize: number;
  /** KV-cache usage as a fraction in [0, 1]. */
  readonly kvCacheUsagePercent: number;
  /** LoRA adapters currently loaded and running. */
  readonly activeModels: readonly string[];
  /** LoRA adapters requested but waiting for a slot. */
  readonly waitingModels: readonly string[];
  /** Max LoRA adapters the engine can hold at once (0 when unknown). */
  readonly maxActiveModels: number;
  /** KV-cache block size in tokens (0 when unknown). */
  readonly cacheBlockSize: number;
  /** KV-cache block count (`num_gpu_blocks`; 0 when unknown). */
  readonly cacheNumBlocks: number;
  /** Clock time (ms) at which these values were observed. */
  readonly updatedAt: number;
}

/**
 * Static description of an endpoint, as given by discovery or configuration.
 * @public
 * @category Endpoints and the pool
 */
export interface EndpointSpec {
  /** Stable id (defaults to `address`). llm-d uses `<ns>/<pod>-rank-<i>`. */
  readonly id?: string;
  /** `ip:port` (IPv6 as `[::1]:8000`) the gateway forwards to. */
  readonly address: string;
  /** Labels, e.g. `llm-d.ai/role` and `llm-d.ai/engine-type`. */
  readonly labels?: Readonly<Record<string, string>>;
  /** Port of `/metrics` when it differs from the serving port. */
  readonly metricsPort?: number;
  /**
   * Host (name or IP) of `/metrics` when it differs from the serving host, e.g. a cluster's
   * `metricsAddress` label in `multicluster-file-discovery`.
   */
  readonly metricsHost?: string;
}

/**
 * An endpoint (one model-server rank) as the scheduler sees it. Metrics come from the data layer;
 * in-flight counts are kept by Switchyard itself from decisions' lifecycles.
 * @public
 * @category Endpoints and the pool
 */
export interface Endpoint {
  /** Stable id. */
  readonly id: string;
  /** `ip:port`. */
  readonly address: string;
  /** Host part of the address (without IPv6 brackets). */
  readonly ip: string;
  /** Port part of the address. */
  readonly port: number;
  /** Labels. */
  readonly labels: Readonly<Record<string, string>>;
  /** Engine kind, from `llm-d.ai/engine-type` (fallback `inference.networking.k8s.io/engine-type`, default vllm). */
  readonly engineType: EngineType;
  /** Port of `/metrics`. */
  readonly metricsPort: number;
  /** Host of `/metrics` when it is not `ip` (undefined: `ip`). */
  readonly metricsHost?: string | undefined;
  /** Latest metrics, or undefined before the first scrape/push. */
  readonly metrics: EndpointMetrics | undefined;
  /** Requests Switchyard has dispatched to this endpoint and not yet completed. */
  readonly inFlightRequests: number;
  /** Prompt + expected output tokens of those requests. */
  readonly inFlightTokens: number;
}

/**
 * Label holding the disaggregation role. @public
 * @category Endpoints and the pool
 */
export const ROLE_LABEL = 'llm-d.ai/role';
/**
 * Label holding the engine type. @public
 * @category Endpoints and the pool
 */
export const ENGINE_TYPE_LABEL = 'llm-d.ai/engine-type';
/**
 * Fallback label holding the engine type. @public
 * @category Endpoints and the pool
 */
export const ENGINE_TYPE_LABEL_FALLBACK = 'inference.networking.k8s.io/engine-type';
