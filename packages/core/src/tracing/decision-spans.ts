import type { Decision, ParseTiming } from '../picker/types.js';
import type { InferenceRequest } from '../request/types.js';
import type { RequestOutcome } from '../scheduling/plugins.js';
import { errorName } from '../console/decision-log.js';
import type { OpenTelemetryApi, SpanLike, TracerLike } from './otel-types.js';

/** OpenTelemetry's `SpanStatusCode.ERROR`. */
const STATUS_ERROR = 2;

/**
 * The spans of one request, driven by `recordDecisions` (times are clock milliseconds).
 * @public
 * @category Tracing
 */
export interface RequestSpans {
  /** Scheduling answered: ends queue wait, schedule and profile spans, starts the upstream span. */
  decided(decision: Decision, atMs: number): void;
  /** Scheduling refused the request: ends every span with an error status. */
  rejected(error: unknown, atMs: number): void;
  /** The adapter completed the request. */
  ended(outcome: RequestOutcome, atMs: number): void;
}

/**
 * Starts the spans of each request. Pass one to `recordDecisions({ tracer })`.
 * @public
 * @category Tracing
 */
export interface DecisionTracer {
  /** `parsed`, when the adapter reports it, opens the request span at parse start. */
  begin(request: InferenceRequest, pool: string, atMs: number, parsed?: ParseTiming): RequestSpans;
}

/**
 * Options of {@link openTelemetryDecisionTracer}.
 * @public
 * @category Tracing
 */
export interface OpenTelemetryTracerOptions {
  /** Clock milliseconds → epoch milliseconds. @default `performance.timeOrigin + t` (systemClock) */
  readonly toEpochMs?: (clockMs: number) => number;
  /** Tracer name. @default '@switchyard/core' */
  readonly name?: string;
}

/**
 * Spans through `@opentelemetry/api` (whatever SDK the application registered): per request a
 * `switchyard.request` span (a child of the active context) with children `switchyard.parse` (the
 * adapter's body parse, when it passes `PickOptions.parsed`), `switchyard.queue_wait` (admission), `switchyard.schedule` (with one `switchyard.schedule.profile`
 * per profile run) and `switchyard.upstream` (decision to completion: the model server's time).
 * @public
 * @category Tracing
 */
export function openTelemetryDecisionTracer(api: OpenTelemetryApi, options: OpenTelemetryTracerOptions = {}): DecisionTracer {
  const tracer: TracerLike = api.trace.getTracer(options.name ?? '@switchyard/core');
  const epoch = options.toEpochMs ?? ((t: number) => performance.timeOrigin + t);
  const childOf = (parent: SpanLike): unknown => api.trace.setSpan(api.context.active() as never, parent as never);
  return {
    begin(request, pool, atMs, parsed) {
      const start = parsed === undefined ? atMs : Math.min(parsed.startedAt, atMs);
      const root = tracer.startSpan('switchyard.request', { startTime: epoch(start), attributes: { 'switchyard.request_id': request.id, 'switchyard.pool': pool, 'gen_ai.request.model': request.model } }, api.context.active());
      const ctx = childOf(root);
      if (parsed !== undefined) {
        const attributes = { 'switchyard.api': request.api, 'switchyard.body_bytes': request.byteSize };
        tracer.startSpan('switchyard.parse', { startTime: epoch(parsed.startedAt), attributes }, ctx).end(epoch(parsed.endedAt));
      }
      let upstream: SpanLike | undefined;
      return {
        decided(decision, now) {
          const trace = decision.trace;
          const admitted = trace?.admittedAt ?? atMs;
          tracer.startSpan('switchyard.queue_wait', { startTime: epoch(atMs), attributes: { 'switchyard.priority': decision.request.priority, 'switchyard.tenant': decision.request.fairnessId } }, ctx).end(epoch(admitted));
          const schedule = tracer.startSpan('switchyard.schedule', { startTime: epoch(admitted) }, ctx);
          const scheduleCtx = childOf(schedule);
          for (const p of trace?.profiles ?? []) {
            const span = tracer.startSpan('switchyard.schedule.profile', { startTime: epoch(p.startedAt ?? admitted), attributes: { 'switchyard.profile': p.profile, 'switchyard.candidates': p.candidates.length, 'switchyard.picked': [...p.picked] } }, scheduleCtx);
            if (p.error !== undefined) span.setStatus({ code: STATUS_ERROR, message: p.error });
            span.end(epoch(p.endedAt ?? now));
          }
          schedule.end(epoch(now));
          root.setAttribute('switchyard.target_model', decision.request.targetModel);
          root.setAttribute('switchyard.tenant', decision.request.fairnessId);
          upstream = tracer.startSpan('switchyard.upstream', { startTime: epoch(now), attributes: { 'switchyard.endpoint': decision.primary.id, 'server.address': decision.primary.address } }, ctx);
        },
        rejected(error, now) {
          root.setStatus({ code: STATUS_ERROR, message: errorName(error) });
          root.end(epoch(now));
        },
        ended(outcome, now) {
          if (outcome.kind === 'error') {
            const message = outcome.status === undefined ? 'error' : `HTTP ${String(outcome.status)}`;
            upstream?.setStatus({ code: STATUS_ERROR, message });
            root.setStatus({ code: STATUS_ERROR, message });
          }
          upstream?.setAttribute('switchyard.outcome', outcome.kind);
          upstream?.end(epoch(now));
          root.end(epoch(now));
        },
      };
    },
  };
}
