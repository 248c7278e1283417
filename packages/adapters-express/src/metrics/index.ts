export { mergeExpositions } from './merge.js';
