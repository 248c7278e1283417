export { loadOpenTelemetry } from './otel-types.js';
export type { OpenTelemetryApi, SpanAttributes, SpanLike, TracerLike } from './otel-types.js';
export { openTelemetryDecisionTracer } from './decision-spans.js';
export type { DecisionTracer, OpenTelemetryTracerOptions, RequestSpans } from './decision-spans.js';
