import { Attributes, type PrefixMatchInfo, type SchedulingRequest } from '@switchyard/core';
import type { PrefixMatchResult } from '../api/types.js';
import { matchInfoAttribute } from './attributes.js';
import { CandidateMatchMap } from './candidate-match-map.js';

/**
 * Turns an index match into per-candidate `PrefixMatchInfo` (every candidate gets an entry,
 * zero when it holds nothing, as llm-d does), writes it under the shared attribute and the
 * producer's named attribute. (Hit metrics are recorded at PreRequest, for the chosen endpoint:
 * `PrefixIndexerRecorder`.)
 * @public
 * @category Plugins
 */
export function publishMatchInfo(
  request: SchedulingRequest,
  producerName: string,
  candidateIds: readonly string[],
  result: PrefixMatchResult,
  blockSizeTokens: number,
): ReadonlyMap<string, PrefixMatchInfo> {
  // Lazy: only the endpoints that matched cost anything per decision (see CandidateMatchMap).
  const info = new CandidateMatchMap(candidateIds, result.byEndpoint, result.totalBlocks, blockSizeTokens);
  request.attributes.set(Attributes.prefixMatch, info);
  request.attributes.set(matchInfoAttribute(producerName), info);
  return info;
}
