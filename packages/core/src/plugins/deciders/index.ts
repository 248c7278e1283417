export { prefixBasedPdDeciderPlugin, prefixBasedPdDeciderParameters, createPrefixBasedPdDecider, PREFIX_BASED_PD_DECIDER } from './prefix-based-pd-decider.js';
export type { PrefixBasedPdDeciderParams, PrefixBasedPdDeciderOptions } from './prefix-based-pd-decider.js';
export { alwaysDisaggPdDeciderPlugin } from './always-disagg-pd-decider.js';
export { alwaysDisaggMultimodalDeciderPlugin } from './always-disagg-multimodal-decider.js';
