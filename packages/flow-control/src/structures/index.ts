export { IndexedHeap } from './indexed-heap.js';
export type { HeapSlot } from './indexed-heap.js';
export { IdleList } from './idle-list.js';
export type { IdleNode } from './idle-list.js';
