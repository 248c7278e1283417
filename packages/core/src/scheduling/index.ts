export { attributeKey, AttributeMap, Attributes, prefixMatchAttribute } from './attributes.js';
export type { AttributeKey, PrefixMatchInfo, InFlightLoadView, LatencyPrediction, RequestMetadata } from './attributes.js';
export type { SchedulingRequest } from './request.js';
export { createSchedulingRequest, DEFAULT_FAIRNESS_ID } from './make-request.js';
export type { SchedulingRequestInit } from './make-request.js';
export type {
  CycleContext,
  Plugin,
  Filter,
  ScoreMap,
  Scorer,
  ScoredEndpoint,
  Picker,
  Admitter,
  Screener,
  DataProducer,
  ProfileResult,
  SchedulingResult,
  RequestOutcome,
  Usage,
  ResponseStartInfo,
  DataPlaneServedReport,
  ResponseBodyInfo,
  ResponseMetadata,
  RequestLifecycle,
  SchedulingProfile,
  WeightedScorer,
  ProfileHandler,
  StageDecider,
} from './plugins.js';
export { schedulingResult } from './scheduling-result.js';
export { TraceRecorder } from './trace.js';
export type { DecisionTrace, ProfileTrace, ScorerTrace } from './trace.js';
export type { ExtensionPoint, PluginObserver } from './observer.js';
export { Scheduler } from './scheduler.js';
export type { SchedulerConfig, SchedulerOptions } from './scheduler.js';
export { orderProducers } from './producer-order.js';
export { abandonPlugins, closePlugins, configPlugins } from './close-plugins.js';
