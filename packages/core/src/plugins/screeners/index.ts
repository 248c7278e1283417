export {
  disaggregatedsetRolloutScreenerPlugin,
  disaggregatedsetRolloutScreenerParameters,
  revisionDistribution,
  DISAGGREGATEDSET_ROLLOUT_SCREENER,
} from './disaggregatedset-rollout-screener.js';
export type { RevisionDistribution } from './disaggregatedset-rollout-screener.js';
