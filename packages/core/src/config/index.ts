export { createSchedulerConfig } from './programmatic.js';
export type { ProfileSpec, SchedulerConfigOptions } from './programmatic.js';
export { isFilter, isScorer, isPicker, isProfileHandler, isDataProducer, isStageDecider } from './plugin-kinds.js';
export { durationSchema, parseDuration } from './duration.js';
