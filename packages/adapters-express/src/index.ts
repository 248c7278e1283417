/**
 * `@switchyard/express`: a node:http inference gateway handler (proxying, streaming, usage capture,
 * retries, circuit breaking, multi-model routing, metrics and health), with an Express middleware;
 * the Fastify plugin is the `@switchyard/express/fastify` subpath.
 *
 * The root export lists its public names one by one (no `export *`), grouped as the API reference
 * groups them. The proxy machinery (body reading, header building, upstream attempts, error
 * classification) and the config-assembly helpers stay inside the package.
 * @packageDocumentation
 */

// Gateway: the node:http handler and the pool it routes over.
export { createGatewayHandler, DEFAULT_INFERENCE_PATHS, EndpointRotation, ENDPOINT_ROTATION_DEFAULTS } from './gateway/index.js';
// Gateway options: the defaults, stated once, and the one resolve step that applies and checks them.
export { GATEWAY_DEFAULTS, GATEWAY_CLOSE_DEFAULTS, resolveGatewayOptions, resolveGatewayCloseOptions } from './gateway/index.js';
export type { GatewayDefaults, ResolvedGatewayOptions, ResolvedUpstreamOptions } from './gateway/index.js';
export type {
  GatewayHandler,
  HandleOptions,
  CloseOptions,
  GatewayOptions,
  UpstreamOptions,
  FailureMode,
  ClassifyHook,
  BodyLimits,
  GatewayPool,
  EndpointRotationOptions,
  EndpointRotationEvents,
} from './gateway/index.js';

// Framework adapters (Fastify: the `/fastify` subpath).
export { switchyard } from './express/index.js';
export type { SwitchyardMiddleware, ExpressLikeRequest } from './express/index.js';

// Multi-model routing.
export { CatalogueRouter, KnownModels, ModelRegistry, UNKNOWN_MODEL_LABEL, singlePoolRouter } from './models/index.js';
export type { ModelRegistryOptions, ModelRoute, WeightedTarget, ModelRouter, RouteResolution, ModelInfo, CatalogueRouterOptions, ModelCatalogue } from './models/index.js';

// Config: a gateway from a config document.
export { gatewaySectionSchema, gatewayEndpointSchema, createGatewayFromConfig, createUndiciMetricsFetcher, GATEWAY_SECTION_DEFAULTS } from './config/index.js';
export type {
  GatewaySection,
  GatewaySectionInput,
  GatewayEndpointInput,
  GatewayFromConfigOptions,
  Gateway,
  BuiltPool,
  UndiciMetricsFetcherOptions,
  ClosableMetricsFetcher,
  GatewaySectionSettings,
  GatewayListenSettings,
  CircuitBreakerSettings,
} from './config/index.js';

// CLI: `switchyard-gateway`.
export { parseGatewayArgs, GATEWAY_USAGE, runGatewayCli } from './cli/index.js';
export type { GatewayCliArgs, GatewayCliIo, GatewayCliResult } from './cli/index.js';

// Metrics.
export { GatewayMetrics } from './gateway/index.js';
export type { GatewayRoute, PoolMetrics, BoundCounter, BoundGauge, BoundHistogram } from './gateway/index.js';
export { mergeExpositions } from './metrics/index.js';
