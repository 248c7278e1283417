export type { SaturationDetector } from './types.js';
