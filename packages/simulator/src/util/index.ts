export { createRng, hashString32, mix32 } from './prng.js';
export type { Rng } from './prng.js';
export { chainRoot, hashBlock, hashBlocks } from './block-hash.js';
export { Deque } from './deque.js';
export { Histogram } from './histogram.js';
export { BlockHashTable } from './hash-table.js';
