import type { IncomingMessage } from 'node:http';
import type { Dispatcher } from 'undici';
import type { Registry } from 'prom-client';
import type { Classification, Clock, EndpointPool, InferenceRequest, RequestParser, RequestScheduler } from '@switchyard/core';
import type { ModelRouter } from '../models/router.js';
import type { GatewayMetrics } from './metrics.js';
import type { EndpointRotation } from './rotation.js';

/**
 * What to do when the scheduler itself fails (throws something outside the error contract):
 * `FailClose` answers 500 `rejected-internal`; `FailOpen` forwards to a ready endpoint chosen
 * without scheduling (round-robin over the pool's endpoints).
 * @public
 * @category Gateway options
 */
export type FailureMode = 'FailClose' | 'FailOpen';

/**
 * Maps an (authenticated) request to a classification: fairness id, objective, model rewrite.
 * Runs after parsing; its result wins over any header. Throw a `SwitchyardError` to reject.
 * @public
 * @category Gateway options
 */
export type ClassifyHook = (req: IncomingMessage, request: InferenceRequest) => Classification | undefined | Promise<Classification | undefined>;

/**
 * Upstream connection settings (defaults: `GATEWAY_DEFAULTS.upstream`).
 * @public
 * @category Gateway options
 */
export interface UpstreamOptions {
  /**
   * Attempts in total per request, primary included; retries go down the decision's fallbacks.
   * An integer from 1 to 10 (0 is an error, not "one attempt").
   * @defaultValue 3
   */
  readonly maxAttempts?: number | undefined;
  /**
   * TCP connect timeout, ms, per attempt.
   * @defaultValue 5000
   */
  readonly connectTimeoutMs?: number | undefined;
  /**
   * Time allowed for the response head, ms, one deadline per request from its first dispatch
   * (non-streamed completions only answer when done).
   * @defaultValue 300000
   */
  readonly headersTimeoutMs?: number | undefined;
  /**
   * Longest silence between response body chunks, ms.
   * @defaultValue 300000
   */
  readonly bodyTimeoutMs?: number | undefined;
  /**
   * Keep-alive connections per endpoint (an integer ≥ 1).
   * @defaultValue 256
   */
  readonly connectionsPerEndpoint?: number | undefined;
  /**
   * Idle keep-alive connections are closed after this long, ms.
   * @defaultValue 60000
   */
  readonly keepAliveTimeoutMs?: number | undefined;
}

/**
 * Options of `createGatewayHandler`. Give either `scheduler` (one pool: every model goes there)
 * or `models` (a model registry over several pools). The defaults are `GATEWAY_DEFAULTS`, applied
 * and checked once by `resolveGatewayOptions`.
 * @public
 * @category Gateway options
 */
export interface GatewayOptions {
  /** Single-pool gateway: the scheduler (e.g. an `EndpointPicker`). */
  readonly scheduler?: RequestScheduler;
  /** Single-pool gateway: the endpoints the scheduler schedules over (FailOpen, `/readyz`, `/v1/models`). */
  readonly endpoints?: EndpointPool;
  /** Single-pool gateway: circuit breaker to report attempt results to. */
  readonly rotation?: EndpointRotation;
  /** Single-pool gateway: whether some endpoint can serve now (`/readyz`). Without it: the pool has an endpoint. */
  readonly ready?: () => boolean;
  /**
   * Single-pool gateway: pool name used in metrics.
   * @defaultValue 'default'
   */
  readonly poolName?: string;
  /** Multi-model gateway: model and LoRA names → pools. Wins over `scheduler`. */
  readonly models?: ModelRouter;
  /**
   * Largest request body in bytes (16 MiB); larger bodies get 413.
   * @defaultValue 16777216
   */
  readonly maxBodyBytes?: number;
  /**
   * Time allowed from the request head to the last byte of its body; slower bodies get 408 and
   * their bytes are dropped.
   * @defaultValue 60000
   */
  readonly bodyReadTimeoutMs?: number;
  /**
   * Longest silence between request-body chunks before a 408, ms.
   * @defaultValue 15000
   */
  readonly bodyIdleTimeoutMs?: number;
  /**
   * Most bytes held by all request bodies being read at once; a chunk that would exceed it gets
   * its request a 503 (`rejected-saturated`), so stalled uploads cannot pin memory (256 MiB).
   * @defaultValue 268435456
   */
  readonly maxBufferedBodyBytes?: number;
  /**
   * Deepest nesting of arrays/objects in a request body; deeper bodies get 400.
   * @defaultValue 512
   */
  readonly maxJsonDepth?: number;
  /** Request parsers (core's built-ins by default). */
  readonly parsers?: readonly RequestParser[];
  /**
   * Exact paths answered as inference requests (POST only): the OpenAI, Anthropic and vLLM paths.
   * @defaultValue DEFAULT_INFERENCE_PATHS
   */
  readonly inferencePaths?: readonly string[];
  /**
   * Whether classification headers (`x-llm-d-*` and aliases) from the client are honoured. They
   * are never forwarded either way. Pass a function to trust some callers only. Off by default:
   * a gateway faces clients, and a client must not choose its own priority or tenant
   * (docs/security.md); the EPP, behind Envoy, trusts them by default as llm-d does.
   * @defaultValue false
   */
  readonly trustClassificationHeaders?: boolean | ((req: IncomingMessage) => boolean);
  /** Classification from an authenticated identity. */
  readonly classify?: ClassifyHook;
  /**
   * Scheduler failure handling.
   * @defaultValue 'FailClose'
   */
  readonly failureMode?: FailureMode;
  /** Upstream connection settings (ignored for timeouts set on a custom `dispatcher`). */
  readonly upstream?: UpstreamOptions;
  /** undici dispatcher to forward with. Without it: an `Agent` built from `upstream`. */
  readonly dispatcher?: Dispatcher;
  /** Gateway metrics (share one to merge several gateways). Without it: new metrics in a new registry. */
  readonly metrics?: GatewayMetrics;
  /** Further registries served on `/metrics` (scheduler, flow control). */
  readonly metricsRegistries?: readonly Registry[];
  /**
   * `Retry-After` seconds sent with every 429 (and the 503 of a full body buffer); a fraction is
   * rounded up.
   * @defaultValue 1
   */
  readonly retryAfterSeconds?: number;
  /**
   * Serve `/metrics` on this handler's port. Turn it off when clients reach that port: the
   * metrics name pools, models and fairness ids (tenants) with their volumes; serve
   * `metrics.registry` (and `metricsRegistries`) on an internal port instead.
   * @defaultValue true
   */
  readonly serveMetrics?: boolean;
  /**
   * Serve `/metrics`, `/healthz`, `/readyz` and `/v1/models`.
   * @defaultValue true
   */
  readonly serveOperationalRoutes?: boolean;
  /**
   * Record decision traces.
   * @defaultValue false
   */
  readonly trace?: boolean;
  /** Time source for durations and the shutdown grace timer. Without it: `systemClock`. */
  readonly clock?: Clock;
}

/**
 * The paths answered as inference requests by default.
 * @public
 * @category Gateway
 */
export const DEFAULT_INFERENCE_PATHS: readonly string[] = [
  '/v1/chat/completions',
  '/v1/completions',
  '/v1/embeddings',
  '/v1/responses',
  '/v1/messages',
  '/v1/messages/count_tokens',
  '/v1/chat/completions/render',
  '/v1/completions/render',
  '/v1/images/generations',
  '/inference/v1/generate',
  '/generate',
];
