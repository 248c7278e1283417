import { Attributes, type PrefixMatchInfo, type SchedulingRequest } from '@switchyard/core';
import type { PrefixMatchResult } from '../api/types.js';
import type { PrefixIndexMetrics } from '../metrics/prefix-metrics.js';
import { matchInfoAttribute } from './attributes.js';
import { CandidateMatchMap } from './candidate-match-map.js';

/**
 * Turns an index match into per-candidate `PrefixMatchInfo` (every candidate gets an entry,
 * zero when it holds nothing, as llm-d does), writes it under the shared attribute and the
 * producer's named attribute, and records hit metrics for the best candidate.
 * @public
 */
export function publishMatchInfo(
  request: SchedulingRequest,
  producerName: string,
  candidateIds: readonly string[],
  result: PrefixMatchResult,
  blockSizeTokens: number,
  metrics: PrefixIndexMetrics | undefined,
): ReadonlyMap<string, PrefixMatchInfo> {
  // Lazy: only the endpoints that matched cost anything per decision (see CandidateMatchMap).
  const info = new CandidateMatchMap(candidateIds, result.byEndpoint, result.totalBlocks, blockSizeTokens);
  let best = 0;
  for (const m of result.byEndpoint.values()) if (m.cachedBlocks > best) best = m.cachedBlocks;
  request.attributes.set(Attributes.prefixMatch, info);
  request.attributes.set(matchInfoAttribute(producerName), info);
  if (metrics !== undefined && result.totalBlocks > 0) {
    metrics.hitRatio.observe(best / result.totalBlocks);
    metrics.hitBytes.observe(best * blockSizeTokens * 4);
  }
  return info;
}
