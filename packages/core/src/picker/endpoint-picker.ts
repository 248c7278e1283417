import { createLegacyAdmissionController } from '../admission/legacy.js';
import type { AdmissionController, AdmissionGrant } from '../admission/types.js';
import { systemClock, type Clock } from '../clock/clock.js';
import { loadConfig, type LoadedConfig } from '../config/loader.js';
import { joinHostPort } from '../endpoints/address.js';
import type { EndpointPool } from '../endpoints/pool.js';
import type { Endpoint } from '../endpoints/types.js';
import { SwitchyardError, isSwitchyardError } from '../errors/switchyard-error.js';
import { DESTINATION_HEADER } from '../headers/names.js';
import type { SchedulerMetrics } from '../observability/metrics.js';
import type { RequestSeries } from '../observability/request-series.js';
import { llmdErrorCode } from '../observability/error-code.js';
import { requestPromptTokens } from '../plugins/request-tokens.js';
import { createDefaultRegistry } from '../registry/default-registry.js';
import type { PluginRegistry } from '../registry/plugin-registry.js';
import type { InferenceRequest } from '../request/types.js';
import type { SaturationDetector } from '../saturation/types.js';
import { Attributes } from '../scheduling/attributes.js';
import type { CycleContext, DataProducer, Plugin, SchedulingResult } from '../scheduling/plugins.js';
import { applyStaleness, validateStaleness, type StalenessSettings } from '../model-metrics/staleness.js';
import { LazyProfileResult } from '../scheduling/profile-result.js';
import { Scheduler, type SchedulerConfig } from '../scheduling/scheduler.js';
import { TraceRecorder } from '../scheduling/trace.js';
import { selectCandidates } from './candidates.js';
import { classifyRequest, type ClassifyDeps } from './classify.js';
import { isRequestHeaderProcessor } from '../plugins/request-headers/request-header-processor.js';
import { DecisionShared, HeaderRecord, PickDecision } from './decision.js';
import type { ModelRewriteResolver, ObjectiveLookup } from './lookups.js';
import { resolvePickerDefaults } from './defaults.js';
import { IfAvailablePolicy, type IfAvailableOptions } from './if-available.js';
import { prefersIfAvailable } from './prefer.js';
import type { Decision, PickOptions, RequestScheduler } from './types.js';
import { splitEndpointId } from '../endpoints/endpoint-id.js';

/**
 * Options of {@link EndpointPicker}.
 * @public
 * @category EndpointPicker façade
 */
export interface EndpointPickerOptions {
  /** The endpoints to schedule over. */
  readonly pool: EndpointPool;
  /**
   * Scheduling configuration: `loadConfig(...)` or `createSchedulerConfig(...)`. Default: llm-d's
   * defaults (queue 2, kv-cache-utilization 2, prefix-cache 3 when `registry` has it, max-score).
   */
  readonly config?: SchedulerConfig | undefined;
  /** Registry for the default config (default: `createDefaultRegistry()`). */
  readonly registry?: PluginRegistry | undefined;
  /** Time source (default: the system clock). */
  readonly clock?: Clock | undefined;
  /** Admission (e.g. a flow controller). Default: the legacy controller over `saturationDetector`. */
  readonly admission?: AdmissionController | undefined;
  /** Detector of the default legacy admission (default: `utilization-detector` defaults). */
  readonly saturationDetector?: SaturationDetector | undefined;
  /** Objective priorities (`ObjectiveStore`). Without it every priority is 0. */
  readonly objectives?: ObjectiveLookup | undefined;
  /** Model rewrite rules (`ModelRewriteStore`). */
  readonly rewrites?: ModelRewriteResolver | undefined;
  /**
   * Ranked fallbacks added to every decision: after the picker's own targets, up to this many more
   * of the primary profile's candidates, best score first, so that a gateway can retry a refused
   * connection on the next one. `0` keeps the picker's targets only. @defaultValue 2
   */
  readonly fallbacks?: number | undefined;
  /**
   * What to do with candidates whose metrics are missing or stale while others have fresh ones
   * (default: the config's `dataLayer.stalenessPolicy`, else score them as saturated, 2 s).
   */
  readonly staleness?: Partial<StalenessSettings> | undefined;
  /**
   * `Prefer: if-available` handling (`PICKER_DEFAULTS.ifAvailable`: off), because answering it from
   * the shared prefix index tells any client whether another tenant's prompt is cached (see
   * `IfAvailableMode`).
   */
  readonly ifAvailable?: IfAvailableOptions | undefined;
  /** Random source in [0, 1) for tie-breaks and weighted choices (seed it in simulations). */
  readonly random?: (() => number) | undefined;
  /** Prometheus metrics; off when omitted. */
  readonly metrics?: SchedulerMetrics | undefined;
  /**
   * Name of the pool, for metrics shared by several pickers: `ready_endpoints` is then reported
   * with `name="<poolName>"`, llm-d's label (unlabelled when omitted).
   */
  readonly poolName?: string | undefined;
  /** Called when a data producer throws (the request continues without its attributes). */
  readonly onProducerError?: ((producer: DataProducer, error: unknown) => void) | undefined;
  /** Called when a lifecycle hook throws (accounting continues regardless). */
  readonly onHookError?: ((plugin: Plugin, hook: string, error: unknown) => void) | undefined;
}

function defaultConfig(registry: PluginRegistry, pool: EndpointPool, clock: Clock): SchedulerConfig {
  return loadConfig(undefined, { registry, pool, clock });
}

const encoder = new TextEncoder();
/** Response headers of a decision no plugin added any to (shared, so frozen). */
const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * The scheduling brain a gateway holds per pool. `pick` classifies a parsed request (model
 * rewrite, objective priority, fairness id, SLOs), admits it, restricts candidates to the subset
 * hint, runs data producers and the profile handler's Filter → Score → Pick profiles, runs the
 * pre-request hooks, and returns a {@link Decision} whose lifecycle keeps in-flight counts and
 * admission slots exact whatever happens.
 * @example
 * ```ts
 * const pool = new EndpointPool();
 * pool.add({ address: '10.0.0.1:8000' });
 * const picker = new EndpointPicker({ pool });
 * const decision = await picker.pick(parseRequest({ path, headers, body }));
 * try { await forward(decision.primary, decision.headers, decision.body); decision.complete({ kind: 'success' }); }
 * catch (error) { decision.complete({ kind: 'error', error }); }
 * ```
 * @public
 * @category EndpointPicker façade
 */
export class EndpointPicker implements RequestScheduler {
  /** The pool. */
  readonly pool: EndpointPool;
  /** The scheduler running the configuration. */
  readonly scheduler: Scheduler;
  /** The admission controller in use. */
  readonly admission: AdmissionController;
  /** Metrics, when enabled. */
  readonly metrics: SchedulerMetrics | undefined;
  readonly #clock: Clock;
  readonly #random: () => number;
  readonly #fallbacks: number;
  readonly #staleness: StalenessSettings;
  readonly #ifAvailable: IfAvailablePolicy;
  readonly #staleGauge: { set(v: number): void } | undefined;
  readonly #classifyDeps: ClassifyDeps;
  readonly #onHookError: EndpointPickerOptions['onHookError'];
  readonly #decisionType: ((result: SchedulingResult) => string) | undefined;
  readonly #profileHandler: { readonly type: string; readonly name: string };
  readonly #unsubscribe: (() => void) | undefined;
  readonly #shared: DecisionShared;
  /** The cycle context of untraced requests, shared: it holds nothing request-specific. */
  readonly #untracedCycle: CycleContext;
  #closing: Promise<void> | undefined;

  constructor(options: EndpointPickerOptions) {
    this.pool = options.pool;
    this.#clock = options.clock ?? systemClock;
    this.#random = options.random ?? Math.random;
    const resolved = resolvePickerDefaults(options);
    this.#fallbacks = resolved.fallbacks;
    this.#ifAvailable = new IfAvailablePolicy(resolved.ifAvailable);
    this.#onHookError = options.onHookError;
    this.metrics = options.metrics;
    const config = options.config ?? defaultConfig(options.registry ?? createDefaultRegistry(), this.pool, this.#clock);
    const headerProcessors = [...config.plugins.values()].filter(isRequestHeaderProcessor);
    const metrics = options.metrics;
    this.#classifyDeps = {
      objectives: options.objectives,
      rewrites: options.rewrites,
      random: this.#random,
      headerProcessors,
      onRewrite: metrics === undefined ? undefined : (rewriteName, model, target) => {
        metrics.recordModelRewrite(rewriteName, model, target);
      },
    };
    const configured = (config as Partial<LoadedConfig>).dataLayerSettings?.staleness;
    this.#staleness = validateStaleness({ ...configured, ...options.staleness });
    this.#staleGauge = options.metrics?.staleEndpoints.labels(options.poolName ?? 'utilization-detector');
    this.scheduler = new Scheduler(config, { observer: options.metrics?.observer, onProducerError: options.onProducerError });
    this.#untracedCycle = { clock: this.#clock, random: this.#random, trace: undefined };
    this.#shared = new DecisionShared(this.pool, this.#clock, this.scheduler.lifecycle, this.metrics, this.#onHookError);
    this.admission = options.admission ?? createLegacyAdmissionController({ pool: this.pool, detector: options.saturationDetector, clock: this.#clock });
    this.#decisionType = config.profileHandler.decisionType?.bind(config.profileHandler);
    this.#profileHandler = config.profileHandler;
    if (options.metrics !== undefined) {
      const gauge = options.metrics.readyEndpoints;
      const ready: { set(v: number): void } = options.poolName === undefined ? gauge : gauge.labels(options.poolName);
      const update = (): void => {
        ready.set(this.pool.size);
      };
      update();
      this.pool.on('added', update).on('removed', update);
      // llm-d's pool is always named; an unnamed picker's summary gauges say `name=""`.
      const unwatch = options.metrics.watchPool(options.poolName ?? '', this.pool, this.#clock, this.#staleness.thresholdMs);
      this.#unsubscribe = () => {
        this.pool.off('added', update).off('removed', update);
        unwatch();
      };
    }
  }

  /**
   * Schedules one request.
   * @throws SwitchyardError from the error contract: `BAD_REQUEST` (no model),
   * `REJECTED_SHEDDABLE`/admission errors, `REJECTED_NO_ENDPOINTS` (empty pool or subset hint),
   * `REJECTED_SATURATED` (filters removed everything), `PRECONDITION_FAILED` (`Prefer:
   * if-available` without a cached prefix, when `ifAvailable` enables it),
   * `REJECTED_CONTEXT_CANCELLED` (signal aborted)
   */
  async pick(request: InferenceRequest, options: PickOptions = {}): Promise<Decision> {
    const clock = this.#clock;
    const receivedAt = clock.now();
    const metrics = this.metrics;
    let series: RequestSeries | undefined;
    let grant: AdmissionGrant | undefined;
    try {
      const sreq = classifyRequest(request, options, this.#classifyDeps, receivedAt);
      if (metrics !== undefined) {
        series = metrics.requestSeries(request.model, sreq.targetModel, sreq.fairnessId, String(sreq.priority));
        series.total.inc();
        series.requestSize.observe(request.rawBody.byteLength);
      }

      // A controller that can decide at once saves the microtask an awaited, settled promise costs.
      // The signal is checked on entry and after each wait: nothing can abort it in between.
      throwIfCancelled(options.signal);
      grant = this.admission.admitNow?.(sreq);
      if (grant === undefined) {
        grant = await this.admission.admit(sreq, options.signal === undefined ? undefined : { signal: options.signal });
        throwIfCancelled(options.signal);
      }
      const staleness = applyStaleness(selectCandidates(this.pool, options.subsetHint), receivedAt, this.#staleness);
      this.#staleGauge?.set(staleness.stale);

      const trace = options.trace === true ? new TraceRecorder(sreq.id, sreq.targetModel, sreq.priority, sreq.fairnessId, () => clock.now()) : undefined;
      const ctx: CycleContext = trace === undefined ? this.#untracedCycle : { clock, random: this.#random, trace };
      const scheduler = this.scheduler;
      // Screeners run before the producers, as llm-d's do.
      const candidates = scheduler.screeners.length === 0 ? staleness.endpoints : scheduler.screen(ctx, sreq, staleness.endpoints);
      const observer = scheduler.sampleObserver();
      const t0 = metrics === undefined ? 0 : clock.now();
      const pending = scheduler.produce(ctx, sreq, candidates, options.signal, observer);
      if (pending !== undefined) {
        await pending;
        throwIfCancelled(options.signal);
      }
      if (scheduler.admitters.length > 0) scheduler.admit(ctx, sreq, candidates);
      let result: SchedulingResult;
      try {
        result = scheduler.schedule(ctx, sreq, candidates, observer);
      } catch (error) {
        if (metrics !== undefined) metrics.schedulerAttempts.labels('failure', metrics.modelLabelOf(sreq.targetModel), '', '', '').inc();
        throw error;
      }
      metrics?.schedulerE2eDuration.observe((clock.now() - t0) / 1000);

      const primaryResult = result.profileResults.get(result.primaryProfileName);
      const picked = primaryResult?.targets;
      const primary = picked?.[0];
      if (picked === undefined || primary === undefined) {
        throw new SwitchyardError('INTERNAL', `primary profile "${result.primaryProfileName}" has no target`);
      }
      if (metrics !== undefined) recordAttempt(metrics, sreq.targetModel, primary);
      const ifAvailable = this.#ifAvailable;
      if (ifAvailable.mode !== 'off' && prefersIfAvailable(request.headers.prefer)) {
        const match = sreq.attributes.get(Attributes.prefixMatch)?.get(primary.id);
        const cached = match !== undefined && match.matchBlocks > 0;
        if (!cached || (ifAvailable.mode === 'own-history' && !ifAvailable.sentBefore(sreq.fairnessId, primary.id, request))) {
          throw new SwitchyardError('PRECONDITION_FAILED', 'Prefer: if-available, but the chosen endpoint holds no cached prefix of this request');
        }
      }
      ifAvailable.record(sreq.fairnessId, primary.id, request);

      const headers: Record<string, string> = new HeaderRecord();
      for (const plugin of scheduler.lifecycle) {
        if (plugin.preRequest === undefined) continue;
        const h0 = observer === undefined ? 0 : clock.now();
        plugin.preRequest(ctx, sreq, result, headers);
        if (observer !== undefined) observer.record('PreRequest', plugin, clock.now() - h0);
      }
      // The destination header names the picker's own choice, as llm-d's does; the ranked
      // fallbacks are for forwarders that retry (the HTTP gateway reads `targets`).
      headers[DESTINATION_HEADER] = destination(picked);
      const targets = primaryResult instanceof LazyProfileResult ? primaryResult.withFallbacks(this.#fallbacks) : picked;
      if (this.#decisionType !== undefined) metrics?.recordDisaggDecision(this.#profileHandler, sreq.targetModel, this.#decisionType(result));

      const body = sreq.targetModel !== request.model && request.body !== undefined ? encoder.encode(JSON.stringify({ ...request.body, model: sreq.targetModel })) : request.rawBody;
      const tokens = requestPromptTokens(sreq) + (request.maxOutputTokens ?? 0);
      metrics?.requestProcessing.observe((clock.now() - receivedAt) / 1000);
      return new PickDecision(
        { request: sreq, targets, result, headers, responseHeaders: sreq.attributes.get(Attributes.responseHeaders) ?? NO_HEADERS, body, trace: trace?.trace, tokens },
        this.#shared,
        grant,
        series,
      );
    } catch (error) {
      grant?.release(isSwitchyardError(error) && error.code === 'REJECTED_CONTEXT_CANCELLED' ? { kind: 'cancelled' } : { kind: 'error', error });
      if (metrics !== undefined) {
        const [model, target, fairness, priority] = series?.labels ?? [request.model, request.model, '', ''];
        metrics.requestErrorTotal.labels(model, target, fairness, priority, llmdErrorCode({ error })).inc();
      }
      throw error;
    }
  }

  /**
   * Shuts the picker down: detaches from the pool, stops the admission controller (queued
   * requests are rejected), then closes every plugin of the configuration that has a `close()`
   * (ZMQ subscriptions, pool listeners...), each exactly once. Every step runs even when an
   * earlier one fails; calling it again returns the same promise.
   * @throws SwitchyardError `INTERNAL` (or the admission controller's own error) once everything
   * was attempted, naming what failed
   */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    this.#unsubscribe?.();
    const errors: unknown[] = [];
    try {
      await this.admission.close?.();
    } catch (error) {
      errors.push(error);
    }
    try {
      await this.scheduler.close();
    } catch (error) {
      errors.push(error);
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) {
      const detail = errors.map((e) => (e instanceof Error ? e.message : String(e))).join('; ');
      throw new SwitchyardError('INTERNAL', `closing the endpoint picker failed: ${detail}`, { cause: new AggregateError(errors, detail) });
    }
  }
}

/** `scheduler_attempts_total{status="success"}` with the primary's pod name, namespace and port (ids are `<namespace>/<name>` under Kubernetes). */
function recordAttempt(metrics: SchedulerMetrics, targetModel: string, primary: Endpoint): void {
  const { namespace, name } = splitEndpointId(primary.id);
  metrics.schedulerAttempts.labels('success', metrics.modelLabelOf(targetModel), name, namespace, String(primary.port)).inc();
}

function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw new SwitchyardError('REJECTED_CONTEXT_CANCELLED', 'the client cancelled the request');
}

function destination(targets: readonly Endpoint[]): string {
  if (targets.length === 1) {
    const e = targets[0] as Endpoint;
    return joinHostPort(e.ip, e.port);
  }
  return targets.map((e) => joinHostPort(e.ip, e.port)).join(',');
}
