export { parseQuantity } from './quantity.js';
export { formatDuration } from './duration.js';
