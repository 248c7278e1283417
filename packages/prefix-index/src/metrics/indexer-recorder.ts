import type { FastGaugeChild, FastHistogramChild, PrefixMatchInfo, SchedulingResult } from '@switchyard/core';
import type { PrefixIndexMetrics } from './prefix-metrics.js';

/**
 * One prefix producer's series of the `llm_d_epp_prefix_indexer_*` families, labelled
 * `plugin_name` / `plugin_type` as llm-d labels them, and recorded at llm-d's moments: the hit of
 * the endpoint the scheduler chose, at PreRequest (not the best candidate at match time: a request
 * sent elsewhere by load scorers counts as the miss it is), and the index size as it changes.
 * @internal
 */
export class PrefixIndexerRecorder {
  readonly #size: FastGaugeChild;
  readonly #hitRatio: FastHistogramChild;
  readonly #hitBytes: FastHistogramChild;

  constructor(metrics: PrefixIndexMetrics, pluginName: string, pluginType: string) {
    this.#size = metrics.indexSize.labels(pluginName, pluginType);
    this.#hitRatio = metrics.hitRatio.labels(pluginName, pluginType);
    this.#hitBytes = metrics.hitBytes.labels(pluginName, pluginType);
  }

  /** The index's (block, endpoint) entries now. */
  recordSize(entries: number): void {
    this.#size.set(entries);
  }

  /**
   * The primary profile's first target's match out of `info` (the producer's per-candidate match
   * info): matched / total blocks, and the matched length in bytes estimated as llm-d does (blocks ×
   * block size × 4 characters per token). Nothing is recorded for a prompt of no blocks.
   */
  recordChosen(info: ReadonlyMap<string, PrefixMatchInfo> | undefined, result: SchedulingResult): void {
    const chosen = result.profileResults.get(result.primaryProfileName)?.targets[0];
    if (info === undefined || chosen === undefined) return;
    const match = info.get(chosen.id);
    if (match === undefined || match.totalBlocks <= 0) return;
    this.#hitRatio.observe(match.cachedBlocks / match.totalBlocks);
    this.#hitBytes.observe(match.cachedBlocks * match.blockSizeTokens * 4);
  }
}
