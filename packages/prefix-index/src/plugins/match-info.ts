import { Attributes, type PrefixMatchInfo, type SchedulingRequest } from '@switchyard/core';
import type { PrefixMatchResult } from '../api/types.js';
import type { PrefixIndexMetrics } from '../metrics/prefix-metrics.js';
import { matchInfoAttribute } from './attributes.js';
import { matchInfo } from '../api/records.js';

const ZERO_MATCH = { weightedBlocks: 0, cachedBlocks: 0 };

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
  const info = new Map<string, PrefixMatchInfo>();
  let best = 0;
  for (const id of candidateIds) {
    const m = result.byEndpoint.get(id) ?? ZERO_MATCH;
    if (m.cachedBlocks > best) best = m.cachedBlocks;
    info.set(id, matchInfo(Math.trunc(m.weightedBlocks), result.totalBlocks, blockSizeTokens, m.cachedBlocks));
  }
  request.attributes.set(Attributes.prefixMatch, info);
  request.attributes.set(matchInfoAttribute(producerName), info);
  if (metrics !== undefined && result.totalBlocks > 0) {
    metrics.hitRatio.observe(best / result.totalBlocks);
    metrics.hitBytes.observe(best * blockSizeTokens * 4);
  }
  return info;
}
