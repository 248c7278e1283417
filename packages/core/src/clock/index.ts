export { systemClock, sleep } from './clock.js';
export type { Clock, TimerHandle } from './clock.js';
export { ManualClock } from './manual-clock.js';
export { seededRandom } from './seeded-random.js';
