export type { Classification, PickOptions, ParseTiming, Decision, RequestScheduler } from './types.js';
export { EndpointPicker } from './endpoint-picker.js';
export { HeaderRecord } from './decision.js';
export type { EndpointPickerOptions } from './endpoint-picker.js';
export type { ObjectiveLookup, ModelRewriteResolver, ModelRewriteDecision } from './lookups.js';
export { prefersIfAvailable } from './prefer.js';
export type { IfAvailableMode, IfAvailableOptions } from './if-available.js';
export { ifAvailableSectionSchema } from './if-available.js';
export { PICKER_DEFAULTS } from './defaults.js';
