export { requestBlocks, workloadBlocks, type RequestBlocks } from './block-streams.js';
export { unlimitedCacheHits, beladyHits } from './hit-bounds.js';
export { bestPossibleHits, idlePrefillMs, ttftLowerBounds, type TtftBoundEngine } from './ttft-bound.js';
export { computeBounds, type BoundsOptions, type WorkloadBounds } from './bounds.js';
