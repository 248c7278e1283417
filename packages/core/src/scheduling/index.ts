export { attributeKey, AttributeMap, Attributes } from './attributes.js';
export type { AttributeKey, PrefixMatchInfo } from './attributes.js';
export type { SchedulingRequest } from './request.js';
export type {
  CycleContext,
  Plugin,
  Filter,
  ScoreMap,
  Scorer,
  ScoredEndpoint,
  Picker,
  DataProducer,
  ProfileResult,
  SchedulingResult,
  RequestOutcome,
  Usage,
  ResponseStartInfo,
  RequestLifecycle,
  SchedulingProfile,
  ProfileHandler,
  StageDecider,
} from './plugins.js';
export { TraceRecorder } from './trace.js';
export type { DecisionTrace, ProfileTrace } from './trace.js';
