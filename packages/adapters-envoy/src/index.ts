/**
 * `@switchyard/envoy`: Envoy ext_proc (v3) Endpoint Picker server for Switchyard.
 *
 * The root export lists its public names one by one (no `export *`), grouped as the API reference
 * groups them. The wire builders (header mutations, body chunking, struct readers) and the
 * per-stream phases stay inside the package.
 * @packageDocumentation
 */

// EPP: a picker from a config, served over ext_proc with health and metrics.
export { startEpp } from './epp/index.js';
export type { EppOptions, RunningEpp, MetricsSource, MetricsHttpServer } from './epp/index.js';

// Options: the defaults of the EPP, its server and its streams, stated once, and their resolve steps.
export { EPP_DEFAULTS, resolveEppOptions } from './epp/index.js';
export type { EppDefaults, ResolvedEppOptions } from './epp/index.js';
export { EPP_SERVER_DEFAULTS, resolveEppServerOptions } from './grpc/index.js';
export type { EppServerDefaults, ResolvedEppServerOptions } from './grpc/index.js';
export { EXT_PROC_STREAM_DEFAULTS, resolveExtProcStreamOptions } from './stream/index.js';
export type { ExtProcStreamDefaults, ResolvedExtProcStreamOptions } from './stream/index.js';

// Server: the gRPC ext_proc and health services around any scheduler.
export { startEppServer, HealthState, ServingStatus, EXT_PROC_SERVICE_NAME } from './grpc/index.js';
export type {
  EppServer,
  EppServerOptions,
  EppServerStats,
  EppTlsOptions,
  EppKeepaliveOptions,
  EppTransport,
  ServingStatusValue,
  HealthStateEvents,
} from './grpc/index.js';

// Stream: one ext_proc stream, for embedding in another gRPC server.
export { ExtProcStream } from './stream/index.js';
export type { StreamPhase, ParseRequestFn, ExtProcSink, ExtProcObserver, ExtProcStreamOptions } from './stream/index.js';

// CLI: `switchyard-epp`.
export { parseEppArgs, splitEndpoints, EPP_USAGE, EPP_CLI_DEFAULTS, runEppCli, runEppExplain, EPP_EXPLAIN_USAGE } from './cli/index.js';
export type { EppCliArgs, LlmdFlags, EppCliIo } from './cli/index.js';

// Codec: the ext_proc and health protobuf messages (for tests and load generators).
export {
  decodeProcessingRequest,
  encodeProcessingRequest,
  encodeProcessingResponse,
  decodeProcessingResponse,
  decodeHealthCheckRequest,
  encodeHealthCheckRequest,
  encodeHealthCheckResponse,
  decodeHealthCheckResponse,
} from './codec/index.js';
export type {
  WireHeaderValue,
  WireHeaderMap,
  WireValue,
  WireStruct,
  WireMetadata,
  WireHttpHeaders,
  WireHttpBody,
  WireHttpTrailers,
  ProcessingRequestKind,
  ProcessingRequest,
  WireHeaderValueOption,
  WireHeaderMutation,
  WireStreamedBodyResponse,
  WireCommonResponse,
  WireImmediateResponse,
  ProcessingResponse,
} from './wire/index.js';
