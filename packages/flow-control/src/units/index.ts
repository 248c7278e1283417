export { parseQuantity } from './quantity.js';
export { parseDuration, formatDuration } from './duration.js';
