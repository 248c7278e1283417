export { singleProfileHandlerPlugin, createSingleProfileHandler, SINGLE_PROFILE_HANDLER } from './single-profile-handler.js';
export { disaggProfileHandlerPlugin } from './disagg-profile-handler.js';
export type { DisaggDecisionType, DisaggProfileHandler } from './disagg-profile-handler.js';
export { pdProfileHandlerPlugin } from './pd-profile-handler.js';
export { disaggHeadersHandlerPlugin, prefillHeaderHandlerPlugin } from './disagg-headers-handler.js';
export { dataParallelProfileHandlerPlugin } from './data-parallel.js';
export { dpRankHeaderHandlerPlugin, dpRankFor, dpWinningRanksAttribute, DP_RANK_HEADER_HANDLER, DATA_PARALLEL_RANK_HEADER } from './dp-rank-header-handler.js';
export { headerProfileHandlerPlugin, headerProfileHandlerParameters, createHeaderProfileHandler, HEADER_PROFILE_HANDLER } from './header-profile-handler.js';
