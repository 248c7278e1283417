export { ApproximatePrefixIndex, DEFAULT_LRU_CAPACITY_PER_ENDPOINT } from './approximate-index.js';
export type { ApproximatePrefixIndexOptions, ApproximatePrefixIndexEvents } from './approximate-index.js';
