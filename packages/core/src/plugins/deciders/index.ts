export { prefixBasedPdDeciderPlugin } from './prefix-based-pd-decider.js';
export { alwaysDisaggPdDeciderPlugin } from './always-disagg-pd-decider.js';
export { alwaysDisaggMultimodalDeciderPlugin } from './always-disagg-multimodal-decider.js';
