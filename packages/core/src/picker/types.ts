import type { Endpoint } from '../endpoints/types.js';
import type { InferenceRequest } from '../request/types.js';
import type { RequestMetadata } from '../scheduling/attributes.js';
import type { SchedulingRequest } from '../scheduling/request.js';
import type { RequestOutcome, ResponseMetadata, ResponseStartInfo, SchedulingResult, Usage } from '../scheduling/plugins.js';
import type { DecisionTrace } from '../scheduling/trace.js';

/**
 * Classification decided by a trusted party (the gateway's `classify` hook), overriding headers.
 * @public
 * @category EndpointPicker façade
 */
export interface Classification {
  /** Fairness (tenant) id. */
  readonly fairnessId?: string;
  /** InferenceObjective name. */
  readonly objective?: string;
  /** Model to route as (a rewrite rule matching the body model still wins, as in llm-d). */
  readonly modelRewrite?: string;
}

/**
 * Options of one `pick` call.
 * @public
 * @category EndpointPicker façade
 */
export interface PickOptions {
  /** Cancels admission queueing and scheduling; a queued request rejects with `REJECTED_CONTEXT_CANCELLED`. */
  readonly signal?: AbortSignal;
  /** Allowed `ip:port` list (Envoy subset hint); matched by IP; empty or no match → 503. */
  readonly subsetHint?: readonly string[];
  /** Record a {@link DecisionTrace}. Off by default, so decisions nobody reads cost nothing. */
  readonly trace?: boolean;
  /**
   * Whether to read classification headers (`x-llm-d-*` and aliases) from the request: the same
   * switch, under the same name, as the gateway's and the EPP's `trustClassificationHeaders`.
   * Those adapters default it to false and always pass their resolved value; the picker alone
   * keeps llm-d's behaviour (the EPP sits behind a proxy that sets the headers), so that a direct
   * `pick(request)` classifies as llm-d does.
   * @defaultValue true
   */
  readonly trustClassificationHeaders?: boolean;
  /**
   * The old name of {@link PickOptions.trustClassificationHeaders}, still read when the new one
   * is unset.
   * @deprecated use `trustClassificationHeaders`
   */
  readonly trustHeaders?: boolean;
  /** Classification from a trusted source; wins over headers. */
  readonly classification?: Classification;
  /**
   * When the adapter parsed this request's body (its clock, which should be the scheduler's):
   * tracing turns it into a `switchyard.parse` span, the first child of `switchyard.request`.
   */
  readonly parsed?: ParseTiming | undefined;
  /**
   * Metadata the proxy attached to the request, per namespace (the EPP passes the `llm-d.routing`
   * namespace of ext_proc's `metadata_context`); plugins read it from the
   * `request-metadata` attribute.
   */
  readonly metadata?: RequestMetadata | undefined;
}

/**
 * The interval an adapter spent turning the request body into an {@link InferenceRequest}.
 * @public
 * @category EndpointPicker façade
 */
export interface ParseTiming {
  /** Clock milliseconds when parsing started. */
  readonly startedAt: number;
  /** Clock milliseconds when parsing ended. */
  readonly endedAt: number;
}

/**
 * The answer for one request: where to send it, what to add to it, and the lifecycle the caller
 * must drive. `complete` must be called exactly once (later calls are ignored); in-flight
 * accounting and admission slots are released there.
 * @public
 * @category EndpointPicker façade
 */
export interface Decision {
  /** The request as scheduled (rewritten model, priority, attributes). */
  readonly request: SchedulingRequest;
  /** First target. */
  readonly primary: Endpoint;
  /** Ordered fallbacks (retry only before any byte reached the client). */
  readonly fallbacks: readonly Endpoint[];
  /**
   * Primary then fallbacks as one list, when the scheduler has it (`EndpointPicker` does), so
   * that a forwarder need not build it for every request. Must equal `[primary, ...fallbacks]`.
   */
  readonly targets?: readonly Endpoint[];
  /** Full scheduling result (all profiles). */
  readonly result: SchedulingResult;
  /** Headers to set on the forwarded request (destination, prefiller, encoders...). */
  readonly headers: Readonly<Record<string, string>>;
  /** Headers to set on the response to the client (e.g. `x-session-token`); often empty. */
  readonly responseHeaders: Readonly<Record<string, string>>;
  /** Body to forward: the original bytes, or re-serialised with the rewritten model. */
  readonly body: Uint8Array;
  /** Model name the client asked for; restore it in responses after a rewrite. */
  readonly clientModel: string;
  /** Trace, when requested. */
  readonly trace: DecisionTrace | undefined;
  /** Aborts when admission revokes the request (flow-control eviction). */
  readonly revoked: AbortSignal | undefined;
  /** Report the first response byte from `info.endpoint`. */
  onResponseStart(info: ResponseStartInfo): void;
  /** Report usage read from the response. */
  onUsage(usage: Usage): void;
  /**
   * Report one response body chunk of `bytes` bytes from the model server, as it arrives (empty
   * chunks are ignored): times TTFT, inter-token latency and response size. Optional for
   * schedulers other than `EndpointPicker`.
   */
  onResponseChunk?(bytes: number): void;
  /**
   * Report time, in ms, the adapter spent on the response (llm-d's moments): each chunk's
   * handling of a streamed (SSE) response, or the interval from the response headers to the end
   * of the body otherwise. Summed and recorded in `response_processing_duration_seconds` at
   * completion when above 0. Optional for schedulers other than `EndpointPicker`.
   */
  onResponseProcessing?(ms: number): void;
  /**
   * Report that the response body ended, before its last bytes go to the data plane, with the
   * usage read from it (undefined when none): runs the plugins' `onResponseBody` hooks and returns
   * the dynamic metadata they added (undefined when none), for an adapter with a data plane to
   * send along with the last body reply. Optional for schedulers other than `EndpointPicker`.
   */
  onResponseBody?(usage: Usage | undefined): ResponseMetadata | undefined;
  /** End the request's lifecycle (exactly once). */
  complete(outcome: RequestOutcome): void;
}

/**
 * What adapters need from a picker: `EndpointPicker` implements it; tests and wrappers may too.
 * @public
 * @category EndpointPicker façade
 */
export interface RequestScheduler {
  /**
   * Schedules a parsed request. Rejects with a SwitchyardError from the contract.
   */
  pick(request: InferenceRequest, options?: PickOptions): Promise<Decision>;
}
