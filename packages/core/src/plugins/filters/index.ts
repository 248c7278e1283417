export { decodeFilterPlugin } from './decode-filter.js';
export { prefillFilterPlugin } from './prefill-filter.js';
export { encodeFilterPlugin } from './encode-filter.js';
export { labelSelectorFilterPlugin, byLabelSelectorFilterPlugin, matchesLabelSelector, labelSelectorRequirementSchema } from './label-selector-filter.js';
export { byLabelFilterPlugin } from './by-label-filter.js';
export type { LabelSelectorRequirement } from './label-selector-filter.js';
export { sessionAffinityFilterPlugin } from './session-affinity-filter.js';
export { sloHeadroomTierFilterPlugin } from './slo-headroom-tier-filter.js';
