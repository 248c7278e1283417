export {
  probabilisticAdmitterPlugin,
  probabilisticAdmitterParameters,
  createProbabilisticAdmitter,
  admitterSaturation,
  rejectionProbability,
  PROBABILISTIC_ADMITTER,
} from './probabilistic-admitter.js';
export type { ProbabilisticAdmitterParams } from './probabilistic-admitter.js';
