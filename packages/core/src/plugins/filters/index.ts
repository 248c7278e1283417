export { decodeFilterPlugin } from './decode-filter.js';
export { prefillFilterPlugin } from './prefill-filter.js';
export { encodeFilterPlugin } from './encode-filter.js';
export { labelSelectorFilterPlugin, matchesLabelSelector, labelSelectorRequirementSchema } from './label-selector-filter.js';
export type { LabelSelectorRequirement } from './label-selector-filter.js';
export { sessionAffinityFilterPlugin } from './session-affinity-filter.js';
