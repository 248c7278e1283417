export {
  probabilisticAdmitterPlugin,
  probabilisticAdmitterParameters,
  createProbabilisticAdmitter,
  admitterSaturation,
  rejectionProbability,
  PROBABILISTIC_ADMITTER,
} from './probabilistic-admitter.js';
export type { ProbabilisticAdmitterParams } from './probabilistic-admitter.js';
export { latencySloAdmitterPlugin, createLatencySloAdmitter, LATENCY_SLO_ADMITTER } from './latency-slo-admitter.js';
