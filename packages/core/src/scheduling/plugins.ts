import type { Clock } from '../clock/clock.js';
import type { Endpoint } from '../endpoints/types.js';
import type { SchedulingRequest } from './request.js';
import type { TraceRecorder } from './trace.js';

/**
 * What every plugin call receives besides the request.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export interface CycleContext {
  /** Time source. */
  readonly clock: Clock;
  /** Random number in [0, 1); seeded in the simulator so runs repeat exactly. */
  readonly random: () => number;
  /** Trace recorder, or undefined when nobody asked for a trace (keep tracing free then). */
  readonly trace: TraceRecorder | undefined;
}

/**
 * Common part of every plugin: `type` is the registry key, `name` the instance name in a config.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export interface Plugin {
  /** Registry key of the plugin's definition, e.g. `queue-scorer`. */
  readonly type: string;
  /** Instance name, unique within one configuration (defaults to the type). */
  readonly name: string;
  /**
   * Attribute names this instance reads, when they depend on its parameters. The config loader
   * uses it (falling back to the definition's `consumes`) to order producers and auto-create
   * missing ones.
   */
  readonly consumes?: readonly string[];
  /**
   * Releases what the instance holds (sockets, timers, pool listeners). `EndpointPicker.close()`
   * and `Scheduler.close()` call it once per instance, after admission stopped; a failure is
   * collected and reported after every other plugin was closed too.
   */
  close?(): void | Promise<void>;
}

/**
 * Removes endpoints that must not serve the request. Returning an empty list fails the profile
 * (429 `rejected-saturated`).
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export interface Filter extends Plugin {
  /** Returns the endpoints that may serve the request (return the input array itself to keep all). */
  filter(ctx: CycleContext, request: SchedulingRequest, endpoints: readonly Endpoint[]): readonly Endpoint[];
}

/**
 * Scores of one scorer, by endpoint id. Values are clamped to [0, 1]; missing endpoints get 0.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export type ScoreMap = ReadonlyMap<string, number>;

/**
 * Rates endpoints for the request.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export interface Scorer extends Plugin {
  /** Scores by endpoint id; values outside [0, 1] are clamped and missing endpoints get 0. */
  score(ctx: CycleContext, request: SchedulingRequest, endpoints: readonly Endpoint[]): ScoreMap;
  /**
   * Optional allocation-free variant the scheduler prefers when present: writes the score of
   * `endpoints[i]` to `out[i]` (NaN = no score, counted as 0). Must agree with {@link Scorer.score}.
   */
  scoreInto?(ctx: CycleContext, request: SchedulingRequest, endpoints: readonly Endpoint[], out: Float64Array): void;
  /**
   * Optional: the numbers behind the scores of `endpoints[i]` (e.g. an estimated TTFT and its
   * inputs), one record per endpoint. Called only when the decision is traced; the trace shows
   * them as the scorer's `details`.
   */
  explain?(ctx: CycleContext, request: SchedulingRequest, endpoints: readonly Endpoint[]): readonly object[];
}

/**
 * An endpoint with its total weighted score in one profile.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export interface ScoredEndpoint {
  /** The candidate. */
  readonly endpoint: Endpoint;
  /** Its total weighted score in the profile. */
  readonly score: number;
}

/**
 * Chooses the target(s) from scored endpoints: the first is the primary, the rest ordered
 * fallbacks.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export interface Picker extends Plugin {
  /** Returns the targets, primary first; an empty list fails the profile. */
  pick(ctx: CycleContext, request: SchedulingRequest, scored: readonly ScoredEndpoint[]): readonly Endpoint[];
  /**
   * Optional allocation-light variant the scheduler prefers when present: `totals[i]` is the
   * total score of `endpoints[i]`. Must agree with {@link Picker.pick}.
   */
  pickFrom?(ctx: CycleContext, request: SchedulingRequest, endpoints: readonly Endpoint[], totals: Float64Array): readonly Endpoint[];
}

/**
 * Supplies request attributes before the profiles run (tokens, prefix matches, load...).
 * Producers run in dependency order of `produces`/`consumes`; their errors are logged, not fatal.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export interface DataProducer extends Plugin {
  /** Attribute names this producer writes. */
  readonly produces: readonly string[];
  /** Attribute names this producer reads. */
  readonly consumes: readonly string[];
  /** Writes attributes into `request.attributes`; may be async (e.g. a remote tokenizer). */
  produce(ctx: CycleContext, request: SchedulingRequest, endpoints: readonly Endpoint[], signal?: AbortSignal): void | Promise<void>;
}

/**
 * Decides, after the data producers ran and before scheduling, whether a request may be served
 * at all (llm-d's request-control Admitter). The first admitter that returns a reason denies the
 * request (`ADMISSION_DENIED`, HTTP 500 as in llm-d, message "request cannot be admitted: …").
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export interface Admitter extends Plugin {
  /** Returns why the request is denied, or undefined to admit it. */
  admitRequest(ctx: CycleContext, request: SchedulingRequest, endpoints: readonly Endpoint[]): string | undefined;
}

/**
 * Restricts the candidates before the data producers run (llm-d's Screener, e.g. the rollout
 * screener of a DisaggregatedSet). Every screener sees the same candidates; the request keeps
 * the endpoints all of them kept, and none left is `REJECTED_NO_ENDPOINTS` (503).
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export interface Screener extends Plugin {
  /** The candidates this request may use (a subset of `endpoints`). */
  screen(ctx: CycleContext, request: SchedulingRequest, endpoints: readonly Endpoint[]): readonly Endpoint[];
}

/**
 * Result of one scheduling profile: ordered targets (primary first) and every scored candidate.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export interface ProfileResult {
  /** Picked endpoints, primary first. */
  readonly targets: readonly Endpoint[];
  /** Every candidate that passed the filters, with its total score (built lazily by the scheduler). */
  readonly scored: readonly ScoredEndpoint[];
}

/**
 * Result of a whole scheduling cycle.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export interface SchedulingResult {
  /** Result per profile that ran; `null` when the profile ran and failed or was rejected by a decider. */
  readonly profileResults: ReadonlyMap<string, ProfileResult | null>;
  /** Name of the profile whose targets the request is sent to. */
  readonly primaryProfileName: string;
}

/**
 * Outcome of a request, reported once to the decision's lifecycle.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export type RequestOutcome =
  | { readonly kind: 'success'; readonly usage?: Usage | undefined }
  | { readonly kind: 'error'; readonly error?: unknown; readonly status?: number }
  | { readonly kind: 'cancelled' };

/**
 * Token usage reported by the model server.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export interface Usage {
  /** Prompt (input) tokens. */
  readonly promptTokens: number;
  /** Generated (output) tokens. */
  readonly completionTokens: number;
  /** Prompt tokens served from the engine's prefix cache, when reported. */
  readonly cachedTokens?: number;
}

/**
 * What the gateway learned when the upstream response started.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export interface ResponseStartInfo {
  /** Endpoint that actually serves the request (may be a fallback). */
  readonly endpoint: Endpoint;
  /** HTTP status from the model server. */
  readonly status: number;
  /** Clock time (ms) of the first byte. */
  readonly at: number;
  /**
   * What the data plane reported about the endpoint it used (ext_proc: Envoy's `envoy.lb`
   * metadata). Absent when the adapter forwarded the request itself.
   */
  readonly dataPlane?: DataPlaneServedReport | undefined;
  /**
   * Headers added to the client's response, not sent yet: `onResponseStart` hooks may add
   * entries (llm-d's ResponseHeader plugins). Absent when the adapter cannot add headers then.
   */
  readonly responseHeaders?: Record<string, string> | undefined;
}

/**
 * The served endpoint as a data plane (Envoy) reports it on the response path.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export interface DataPlaneServedReport {
  /** True once the proxy sent an `envoy.lb` metadata namespace at all. */
  readonly lbMetadata: boolean;
  /** `envoy.lb` → `x-gateway-destination-endpoint-served` (`ip:port`), when present. */
  readonly served: string | undefined;
}

/**
 * Dynamic metadata a response hook hands to the data plane: namespace (e.g. `envoy.lb`) → key →
 * number. The ext_proc adapter sends it with the last response-body reply, where Envoy's filters
 * (a rate limiter charging a token cost, say) can read it.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export type ResponseMetadata = Record<string, Record<string, number>>;

/**
 * What a response-body hook sees when the response body has ended.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export interface ResponseBodyInfo {
  /** Endpoint that served the request. */
  readonly endpoint: Endpoint;
  /** Usage read from the body; undefined when the model server reported none. */
  readonly usage: Usage | undefined;
  /**
   * Dynamic metadata for the data plane, not sent yet: hooks add entries. Absent when the
   * adapter has no data plane to send it to (switchyard-gateway forwards the request itself).
   */
  readonly dynamicMetadata?: ResponseMetadata | undefined;
}

/**
 * Optional lifecycle hooks; any plugin may implement any of them.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export interface RequestLifecycle {
  /** After scheduling, before forwarding: update indexes, account in-flight load, add headers. */
  preRequest?(ctx: CycleContext, request: SchedulingRequest, result: SchedulingResult, headers: Record<string, string>): void;
  /** First response byte received from the model server. */
  onResponseStart?(request: SchedulingRequest, info: ResponseStartInfo): void;
  /** Usage reported (end of a JSON body or the usage chunk of a stream). */
  onUsage?(request: SchedulingRequest, usage: Usage, endpoint: Endpoint): void;
  /**
   * The response body ended and its last bytes are not sent yet (llm-d's ResponseBody plugins):
   * hooks may add dynamic metadata that rides on the last body reply.
   */
  onResponseBody?(request: SchedulingRequest, info: ResponseBodyInfo): void;
  /** The request ended (exactly once per request). */
  onComplete?(request: SchedulingRequest, outcome: RequestOutcome, endpoint: Endpoint | undefined): void;
}

/**
 * A named Filter → Score → Pick pipeline.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export interface SchedulingProfile {
  /** Profile name, referenced by profile handlers (`default`, `decode`, `prefill`...). */
  readonly name: string;
  /** Filters, run in order. */
  readonly filters: readonly Filter[];
  /** Scorers with their (not normalised) weights. */
  readonly scorers: readonly WeightedScorer[];
  /** The one picker. */
  readonly picker: Picker;
}

/**
 * A scorer with its weight in a profile.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export interface WeightedScorer {
  /** The scorer. */
  readonly scorer: Scorer;
  /** Multiplier of its clamped score (default 1 in configs). */
  readonly weight: number;
}

/**
 * Decides which profiles run, in which order, and which result is primary.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export interface ProfileHandler extends Plugin {
  /**
   * Returns the profiles to run next given the results so far; an empty list ends the loop.
   */
  pickProfiles(
    ctx: CycleContext,
    request: SchedulingRequest,
    profiles: ReadonlyMap<string, SchedulingProfile>,
    results: ReadonlyMap<string, ProfileResult | null>,
  ): readonly SchedulingProfile[];
  /** Turns the results into the cycle's result; throws a SwitchyardError when it cannot. */
  processResults(ctx: CycleContext, request: SchedulingRequest, results: ReadonlyMap<string, ProfileResult | null>): SchedulingResult;
  /**
   * Optional load-time check that the configuration's profiles suit this handler; throws an
   * `Error` whose message names the problem (the loader adds the config path).
   */
  validate?(profiles: ReadonlyMap<string, SchedulingProfile>): void;
  /**
   * Optional: classifies a cycle's result for the `llm_d_epp_disagg_decision_total` metric
   * (which stages produced a target, e.g. `decode-only`, `prefill-decode`). The picker counts a
   * label per decision only for handlers that implement it.
   */
  decisionType?(result: SchedulingResult): string;
}

/**
 * Decides whether an optional disaggregation stage (prefill, encode) runs for a request, given the
 * decode stage's pick. Referenced by name from `disagg-profile-handler`'s `deciders`.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export interface StageDecider extends Plugin {
  /** True when the stage should run for this request. */
  shouldRun(ctx: CycleContext, request: SchedulingRequest, decodePick: Endpoint): boolean;
}
