/**
 * `@switchyard/core/testing`: builders and fakes for testing Switchyard plugins and adapters —
 * requests, metrics and pools, plugin drivers, a fake scheduler, and waiting without fixed sleeps.
 * Switchyard's own tests use it; see docs/testing.md.
 * @packageDocumentation
 */
export { inferenceRequest, schedulingRequest, tokensPrompt, type InferenceRequestSpec, type SchedulingRequestSpec } from './requests.js';
export { endpoints, metrics, poolOf, type MemberLabels, type MemberMetrics } from './pool.js';
export { cycleContext, instantiate, resultOf, scoresOf, type CycleContextSpec, type InstantiateOptions } from './plugins.js';
export { FakeScheduler, type FakeBehavior, type FakeDecisionRecord, type FakeSchedulerOptions } from './fake-scheduler.js';
export { settle, waitFor, waitForEvent, type EventSource, type WaitForOptions } from './wait-for.js';
export { SGLANG_PAGE, TRITON_TRTLLM_PAGE, TRTLLM_SERVE_PAGE, VLLM_LEGACY_PAGE, vllmMetricsPage } from './metrics-pages.js';
export { runPickerTwins, twinPickerDefinitions, type PickerTwinStep } from './picker-twins.js';
