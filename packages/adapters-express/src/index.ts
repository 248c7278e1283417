/**
 * `@switchyard/express`: a node:http inference gateway handler (proxying, streaming, usage capture,
 * retries, circuit breaking, multi-model routing, metrics and health), with an Express middleware;
 * the Fastify plugin is the `@switchyard/express/fastify` subpath.
 * @packageDocumentation
 */
export {
  createGatewayHandler,
  DEFAULT_INFERENCE_PATHS,
  EndpointRotation,
  GatewayMetrics,
  readBody,
  BodyWatch,
  ClientGoneError,
  sendError,
  sendJson,
  requestIdGenerator,
  connectionSignal,
  OPERATIONAL_PATHS,
  relayModels,
} from './gateway/index.js';
export type {
  BodyLimits,
  BodyWatchHandle,
  WatchedBody,
  GatewayHandler,
  HandleOptions,
  CloseOptions,
  GatewayOptions,
  UpstreamOptions,
  FailureMode,
  ClassifyHook,
  GatewayPool,
  EndpointRotationOptions,
  EndpointRotationEvents,
  GatewayRoute,
  PoolMetrics,
  BoundCounter,
  BoundGauge,
  BoundHistogram,
} from './gateway/index.js';
export { switchyard } from './express/index.js';
export type { SwitchyardMiddleware, ExpressLikeRequest } from './express/index.js';
export { CatalogueRouter, KnownModels, ModelRegistry, UNKNOWN_MODEL_LABEL, singlePoolRouter } from './models/index.js';
export type { ModelRegistryOptions, ModelRoute, WeightedTarget, ModelRouter, RouteResolution, ModelInfo, CatalogueRouterOptions, ModelCatalogue } from './models/index.js';
export {
  buildUpstreamHeaders,
  buildClientResponseHead,
  rawHeader,
  classifyUpstreamError,
  isRetryable,
  countsAsEndpointFailure,
  ProxyAttempt,
  forwardRequest,
} from './proxy/index.js';
export type {
  UpstreamHeaderInput,
  ClientResponseHead,
  UpstreamFailureKind,
  AttemptResult,
  AttemptContext,
  ForwardOptions,
  ForwardResult,
  ForwardControl,
} from './proxy/index.js';
export {
  gatewaySectionSchema,
  gatewayEndpointSchema,
  addressMatcher,
  trustPredicate,
  splitConfig,
  parseConfigDocument,
  resolvePoolDocument,
  buildPool,
  createGatewayFromConfig,
  createUndiciMetricsFetcher,
} from './config/index.js';
export type {
  GatewaySection,
  GatewaySectionInput,
  GatewayEndpointInput,
  SplitConfig,
  PoolBuildSpec,
  PoolBuildContext,
  BuiltPool,
  GatewayFromConfigOptions,
  Gateway,
  UndiciMetricsFetcherOptions,
  ClosableMetricsFetcher,
} from './config/index.js';
export { parseGatewayArgs, GATEWAY_USAGE, runGatewayCli } from './cli/index.js';
export type { GatewayCliArgs, GatewayCliIo, GatewayCliResult } from './cli/index.js';
export { mergeExpositions } from './metrics/index.js';
