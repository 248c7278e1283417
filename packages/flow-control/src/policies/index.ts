export { isFairnessPolicy, isOrderingPolicy, isUsageLimitPolicy } from './types.js';
export type { QueuedRequest, OrderingPolicy, FlowView, FlowSelector, FairnessPolicy, UsageLimitPolicy } from './types.js';
export { FlowRing } from './ring.js';
export type { RingNode } from './ring.js';
export { createGlobalStrictFairness, GLOBAL_STRICT_FAIRNESS } from './global-strict.js';
export { createRoundRobinFairness, ROUND_ROBIN_FAIRNESS } from './round-robin.js';
export { createWeightedDrrFairness, WEIGHTED_DRR_FAIRNESS } from './weighted-drr.js';
export type { WeightedDrrOptions } from './weighted-drr.js';
export {
  createFcfsOrdering,
  createEdfOrdering,
  createSloDeadlineOrdering,
  FCFS_ORDERING,
  EDF_ORDERING,
  SLO_DEADLINE_ORDERING,
} from './ordering.js';
export { createProgramAwareFairness, PROGRAM_AWARE_FAIRNESS } from './program-aware.js';
export type { ProgramAwareOptions } from './program-aware.js';
export { programAwareFairnessPlugin, programAwareFairnessParameters } from './program-aware-plugin.js';
export { createSoftReflectiveCeiling, SOFT_REFLECTIVE_CEILING } from './soft-reflective-ceiling.js';
export { createStaticUsageLimit, createPriorityHoldback, STATIC_USAGE_LIMIT, PRIORITY_HOLDBACK } from './usage-limits.js';
export type { PriorityHoldbackOptions } from './usage-limits.js';
export {
  createSheddableEvictionFilter,
  createPriorityThenTimeEvictionOrder,
  isEvictionFilter,
  isEvictionOrderPolicy,
  SHEDDABLE_EVICTION_FILTER,
  PRIORITY_THEN_TIME_EVICTION_ORDER,
} from './eviction.js';
export type { EvictionCandidate, EvictionFilter, EvictionOrderPolicy } from './eviction.js';
export {
  sheddableEvictionFilterPlugin,
  priorityThenTimeEvictionOrderPolicyPlugin,
  flowControlPlugins,
  globalStrictFairnessPolicyPlugin,
  roundRobinFairnessPolicyPlugin,
  weightedDrrFairnessPolicyPlugin,
  fcfsOrderingPolicyPlugin,
  edfOrderingPolicyPlugin,
  sloDeadlineOrderingPolicyPlugin,
  staticUsageLimitPolicyPlugin,
  priorityHoldbackPolicyPlugin,
  softReflectiveCeilingPolicyPlugin,
} from './plugins.js';
