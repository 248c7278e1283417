export type { Classification, PickOptions, Decision, RequestScheduler } from './types.js';
