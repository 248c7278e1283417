import { systemClock, type Clock } from '../clock/clock.js';
import type { Endpoint } from '../endpoints/types.js';
import type { Decision, PickOptions, RequestScheduler } from '../picker/types.js';
import type { InferenceRequest } from '../request/types.js';
import type { RequestOutcome, ResponseMetadata, ResponseStartInfo, SchedulingResult, Usage } from '../scheduling/plugins.js';
import type { SchedulingRequest } from '../scheduling/request.js';
import type { DecisionTrace } from '../scheduling/trace.js';
import type { DecisionTracer, RequestSpans } from '../tracing/decision-spans.js';
import { errorName, type DecisionLog, type DecisionRecord } from './decision-log.js';
import { DECISION_TRACE_HEADER, formatCompactTrace } from './compact-trace.js';

/**
 * Called once per request when its outcome is known (success, error, cancellation, rejection):
 * where a gateway writes its one structured log line per request.
 * @public
 * @category Decision console
 */
export type DecisionListener = (record: DecisionRecord) => void;

/**
 * Options of {@link recordDecisions}.
 * @public
 * @category Decision console
 */
export interface RecordDecisionsOptions {
  /** Keep the records (with traces) here, for the console. Without it picks are not traced. */
  readonly log?: DecisionLog | undefined;
  /** Time source. @default the log's clock, else systemClock */
  readonly clock?: Clock | undefined;
  /** Pool name written in each record. @default 'default' */
  readonly pool?: string;
  /** OpenTelemetry spans per request (see `openTelemetryDecisionTracer`); turns tracing on. */
  readonly tracer?: DecisionTracer | undefined;
  /** Called once per request when it ends. */
  readonly onEnd?: DecisionListener | undefined;
  /**
   * Add {@link DECISION_TRACE_HEADER} with {@link formatCompactTrace} of the decision to its
   * `responseHeaders` (the client's response); turns tracing on. @defaultValue false
   */
  readonly traceHeader?: boolean | undefined;
}

/**
 * Wraps a scheduler so that every request gets one {@link DecisionRecord}: kept in `log` (the
 * console's list of recent decisions; picks are then traced, which costs a few object
 * allocations per profile) and handed to `onEnd` once it ends (the request log). The record is
 * updated when the adapter completes the decision, and rejected picks are recorded too, so every
 * request appears exactly once with exactly one outcome. Given none of `log`, `tracer`, `onEnd`
 * and `traceHeader`, it returns `scheduler` itself (there is nothing to record).
 * @public
 * @category Decision console
 */
export function recordDecisions(scheduler: RequestScheduler, options: RecordDecisionsOptions = {}): RequestScheduler {
  const pool = options.pool ?? 'default';
  const log = options.log;
  const clock = options.clock ?? log?.clock ?? systemClock;
  const tracer = options.tracer;
  const traceHeader = options.traceHeader === true;
  // Nothing to record: the scheduler itself, so adapters need not decide whether to wrap.
  if (log === undefined && tracer === undefined && options.onEnd === undefined && !traceHeader) return scheduler;
  const trace = log !== undefined || tracer !== undefined || traceHeader;
  return {
    async pick(request: InferenceRequest, pickOptions: PickOptions = {}): Promise<Decision> {
      const fresh: DecisionRecord = {
        requestId: request.id,
        pool,
        at: clock.now(),
        model: request.model,
        targetModel: '',
        fairnessId: '',
        priority: 0,
        endpoint: undefined,
        fallbacks: [],
        scheduleMs: undefined,
        totalMs: undefined,
        outcome: 'pending',
        error: undefined,
        usage: undefined,
        trace: undefined,
      };
      const record = log === undefined ? fresh : log.push(fresh);
      const spans = tracer?.begin(request, pool, record.at, pickOptions.parsed);
      let decision: Decision;
      try {
        decision = await scheduler.pick(request, trace ? { ...pickOptions, trace: true } : pickOptions);
      } catch (err) {
        record.outcome = 'rejected';
        record.error = errorName(err);
        record.totalMs = clock.now() - record.at;
        spans?.rejected(err, clock.now());
        options.onEnd?.(record);
        throw err;
      }
      const sreq = decision.request;
      record.targetModel = sreq.targetModel;
      record.fairnessId = sreq.fairnessId;
      record.priority = sreq.priority;
      record.endpoint = decision.primary.id;
      record.fallbacks = decision.fallbacks.map((e) => e.id);
      record.scheduleMs = clock.now() - record.at;
      record.trace = log === undefined ? undefined : decision.trace;
      spans?.decided(decision, clock.now());
      const responseHeaders = traceHeader && decision.trace !== undefined ? { ...decision.responseHeaders, [DECISION_TRACE_HEADER]: formatCompactTrace(decision.trace) } : decision.responseHeaders;
      return new RecordedDecision(decision, record, clock, options.onEnd, spans, responseHeaders);
    },
  };
}

/** A decision that reports its completion to the console record, then to the real decision. */
class RecordedDecision implements Decision {
  readonly #inner: Decision;
  readonly #record: DecisionRecord;
  readonly #clock: Clock;
  readonly #onEnd: DecisionListener | undefined;
  readonly #spans: RequestSpans | undefined;
  readonly #responseHeaders: Readonly<Record<string, string>>;
  /**
   * Present exactly when the wrapped decision has it: adapters skip per-chunk work for decisions
   * without it, and the picker's TTFT/ITL metrics are fed through it.
   */
  readonly onResponseChunk?: (bytes: number) => void;
  /** Present exactly when the wrapped decision has it (as `onResponseChunk`). */
  readonly onResponseProcessing?: (ms: number) => void;
  /** Present exactly when the wrapped decision has it (as `onResponseChunk`). */
  readonly onResponseBody?: (usage: Usage | undefined) => ResponseMetadata | undefined;
  #done = false;

  constructor(inner: Decision, record: DecisionRecord, clock: Clock, onEnd: DecisionListener | undefined, spans: RequestSpans | undefined, responseHeaders: Readonly<Record<string, string>>) {
    this.#responseHeaders = responseHeaders;
    if (inner.onResponseChunk !== undefined) this.onResponseChunk = (bytes) => inner.onResponseChunk?.(bytes);
    if (inner.onResponseProcessing !== undefined) this.onResponseProcessing = (ms) => inner.onResponseProcessing?.(ms);
    if (inner.onResponseBody !== undefined) this.onResponseBody = (usage) => inner.onResponseBody?.(usage);
    this.#spans = spans;
    this.#inner = inner;
    this.#record = record;
    this.#clock = clock;
    this.#onEnd = onEnd;
  }

  get request(): SchedulingRequest { return this.#inner.request; }
  get primary(): Endpoint { return this.#inner.primary; }
  get fallbacks(): readonly Endpoint[] { return this.#inner.fallbacks; }
  get targets(): readonly Endpoint[] { return this.#inner.targets ?? [this.#inner.primary, ...this.#inner.fallbacks]; }
  get result(): SchedulingResult { return this.#inner.result; }
  get headers(): Readonly<Record<string, string>> { return this.#inner.headers; }
  get responseHeaders(): Readonly<Record<string, string>> { return this.#responseHeaders; }
  get body(): Uint8Array { return this.#inner.body; }
  get clientModel(): string { return this.#inner.clientModel; }
  get trace(): DecisionTrace | undefined { return this.#inner.trace; }
  get revoked(): AbortSignal | undefined { return this.#inner.revoked; }

  onResponseStart(info: ResponseStartInfo): void {
    // A retry down the fallbacks answers from another endpoint than the primary.
    this.#record.endpoint = info.endpoint.id;
    this.#inner.onResponseStart(info);
  }

  onUsage(usage: Usage): void {
    this.#record.usage = { promptTokens: usage.promptTokens, completionTokens: usage.completionTokens };
    this.#inner.onUsage(usage);
  }

  complete(outcome: RequestOutcome): void {
    if (!this.#done) {
      this.#done = true;
      const r = this.#record;
      r.totalMs = this.#clock.now() - r.at;
      r.outcome = outcome.kind;
      if (outcome.kind === 'error') r.error = outcome.status !== undefined ? `HTTP ${String(outcome.status)}` : outcome.error === undefined ? 'error' : errorName(outcome.error);
      this.#spans?.ended(outcome, r.at + r.totalMs);
      this.#onEnd?.(r);
    }
    this.#inner.complete(outcome);
  }
}
