/**
 * `@switchyard/flow-control`: FlowKey queues, priority bands, fairness and ordering policies,
 * usage limits and in-flight eviction in front of a Switchyard endpoint pool.
 *
 * The root export lists its public names one by one (no `export *`), grouped by module.
 * @packageDocumentation
 */
// units
export { parseQuantity, formatDuration } from './units/index.js';

// policies
export {
  isFairnessPolicy, isOrderingPolicy, isUsageLimitPolicy, FlowRing, createGlobalStrictFairness,
  GLOBAL_STRICT_FAIRNESS, createRoundRobinFairness, ROUND_ROBIN_FAIRNESS,
  createWeightedDrrFairness, WEIGHTED_DRR_FAIRNESS, createFcfsOrdering, createEdfOrdering,
  createSloDeadlineOrdering, FCFS_ORDERING, EDF_ORDERING, SLO_DEADLINE_ORDERING,
  createProgramAwareFairness, PROGRAM_AWARE_FAIRNESS, programAwareFairnessPlugin,
  programAwareFairnessParameters, createSoftReflectiveCeiling, SOFT_REFLECTIVE_CEILING,
  createStaticUsageLimit, createPriorityHoldback, STATIC_USAGE_LIMIT, PRIORITY_HOLDBACK,
  flowControlPlugins, globalStrictFairnessPolicyPlugin, roundRobinFairnessPolicyPlugin,
  weightedDrrFairnessPolicyPlugin, fcfsOrderingPolicyPlugin, edfOrderingPolicyPlugin,
  sloDeadlineOrderingPolicyPlugin, staticUsageLimitPolicyPlugin, priorityHoldbackPolicyPlugin,
  softReflectiveCeilingPolicyPlugin, sheddableEvictionFilterPlugin,
  priorityThenTimeEvictionOrderPolicyPlugin, createSheddableEvictionFilter,
  createPriorityThenTimeEvictionOrder, isEvictionFilter, isEvictionOrderPolicy,
  SHEDDABLE_EVICTION_FILTER, PRIORITY_THEN_TIME_EVICTION_ORDER,
} from './policies/index.js';
export type {
  EvictionCandidate, EvictionFilter, EvictionOrderPolicy,
  QueuedRequest, OrderingPolicy, FlowView, FlowSelector, FairnessPolicy, UsageLimitPolicy,
  RingNode, WeightedDrrOptions, ProgramAwareOptions, PriorityHoldbackOptions,
} from './policies/index.js';

// config
export { parseFlowControlConfig, flowControlSchema, FLOW_CONTROL_DEFAULTS } from './config/index.js';
export type {
  ParseFlowControlOptions, FlowControlInput, BandTemplate, BandSettings, FlowControlConfig,
} from './config/index.js';

// metrics
export {
  FlowControlMetrics, ModelOutcomeCache, QUEUE_OUTCOMES, SeriesHistogram, SeriesHistogramChild, jainsIndex,
} from './metrics/index.js';
export type {
  FlowControlMetricsOptions, FlowControlMetricsSource, QueueOutcome, EnqueueOutcome, OutcomeSeriesCache,
  SeriesHistogramOptions,
} from './metrics/index.js';

// controller
export {
  FlowController, createFlowController, flowControllerForConfig, flowControlPack,
  FLOW_CONTROL_DEFAULT_TYPES, flowControlConsoleSource,
} from './controller/index.js';
export type {
  FlowControllerEvents, FlowControllerOptions, AdmitOptions, FlowControllerStats, BandStats,
  FlowStats, FlowControlConsoleSourceOptions,
} from './controller/index.js';
