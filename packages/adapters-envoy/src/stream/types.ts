import type {
  Clock,
  Decision,
  EndpointPool,
  InferenceRequest,
  ParseOptions,
  RequestInput,
  RequestOutcome,
  RequestParser,
  RequestScheduler,
  Responder,
  SwitchyardError,
} from '@switchyard/core';
import type { ProcessingResponse } from '../wire/messages.js';

/**
 * Turns a buffered HTTP request into an `InferenceRequest`: core's `parseRequest` unless
 * replaced. Throws a SwitchyardError (`BAD_REQUEST`, `PAYLOAD_TOO_LARGE`) on bad input.
 * @public
 * @category Stream
 */
export type ParseRequestFn = (input: RequestInput, options: ParseOptions) => InferenceRequest;

/**
 * Where a stream's replies go. The gRPC binding writes to the call; unit tests collect them.
 * @public
 * @category Stream
 */
export interface ExtProcSink {
  /** Sends one message to the proxy. */
  send(message: ProcessingResponse): void;
  /** Ends the stream cleanly (after an immediate response, or when the proxy half-closed). */
  close(): void;
  /**
   * Ends the stream with a gRPC error. Used for failures outside the error contract, so the
   * proxy's failure mode (FailOpen / FailClose) decides the request's fate.
   */
  fail(error: unknown): void;
}

/**
 * Hooks for metrics and logs; every member optional.
 * @public
 * @category Stream
 */
export interface ExtProcObserver {
  /** A request was scheduled; `latencyMs` spans end of body → decision (queueing included). */
  onDecision?(decision: Decision, latencyMs: number): void;
  /** A request was answered with an ImmediateResponse from the error contract. */
  onRejected?(error: SwitchyardError): void;
  /** A decision's lifecycle ended. */
  onComplete?(outcome: RequestOutcome): void;
  /** A failure outside the contract ended the stream with a gRPC error. */
  onFailure?(error: unknown): void;
}

/**
 * Configuration shared by every stream of a server. The defaults are `EXT_PROC_STREAM_DEFAULTS`,
 * applied and checked once by `resolveExtProcStreamOptions`.
 * @public
 * @category Stream
 */
export interface ExtProcStreamOptions {
  /** The picker (core's `EndpointPicker` or anything implementing `RequestScheduler`). */
  readonly scheduler: RequestScheduler;
  /** Request parser. Default: core's `parseRequest` with its built-in API parsers. */
  readonly parse?: ParseRequestFn | undefined;
  /**
   * API parsers handed to `parse` (a config's `requestHandler.parsers`: `LoadedConfig.parsers`).
   * Default: core's `BUILTIN_REQUEST_PARSERS`.
   */
  readonly parsers?: readonly RequestParser[] | undefined;
  /**
   * The pool the scheduler picks from. Used to route header-only requests (no body to schedule
   * on) and to resolve the served endpoint Envoy reports. Without it, header-only requests get 503.
   */
  readonly pool?: EndpointPool | undefined;
  /** Time source for latencies and response-start times. Default `systemClock`. */
  readonly clock?: Clock | undefined;
  /**
   * Largest request body accepted (413 beyond): 16 MiB, core's `DEFAULT_MAX_BODY_BYTES`. Responses
   * are never buffered.
   * @defaultValue 16777216
   */
  readonly maxBodyBytes?: number | undefined;
  /**
   * Read classification headers (`x-llm-d-*` and aliases) from requests. Off by default in the
   * library, as everywhere (docs/security.md); turn it on behind a gateway that sets or strips
   * them (llm-d's deployment, what the `switchyard-epp` CLI does by default).
   * @defaultValue false
   */
  readonly trustClassificationHeaders?: boolean | undefined;
  /**
   * The old name of `trustClassificationHeaders`: still read, with one deprecation warning per
   * process; giving both with different values is an error.
   * @deprecated use `trustClassificationHeaders`
   */
  readonly trustHeaders?: boolean | undefined;
  /**
   * Largest streamed body chunk sent back, bytes.
   * @defaultValue 62000
   */
  readonly chunkBytes?: number | undefined;
  /**
   * Echo the client's non-control headers in the request header reply, as GAIE does.
   * @defaultValue true
   */
  readonly echoHeaders?: boolean | undefined;
  /** Random source for header-only routing ties. Default `Math.random`. */
  readonly random?: (() => number) | undefined;
  /** Metrics and logging hooks. */
  readonly observer?: ExtProcObserver | undefined;
  /**
   * Add every scored candidate's total score to the `envoy.lb` metadata under
   * `x-gateway-destination-endpoint-scores` (`{ "ip:port": score }`), as llm-d's
   * `--emit-endpoint-scores` does.
   * @defaultValue false
   */
  readonly emitEndpointScores?: boolean | undefined;
  /**
   * Plugins that answer some body-less requests themselves (a config's `models-responder`
   * answers `GET /v1/models`), asked in order before such a request is routed. Default none.
   */
  readonly responders?: readonly Responder[] | undefined;
}
