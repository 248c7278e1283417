import { arrayScorer, type Endpoint, type Scorer, type SchedulingRequest } from '@switchyard/core';
import { chainRoot, hashBlocks } from '../util/block-hash.js';
import type { FleetView } from '../fleet/types.js';

/**
 * Type name of the oracle prefix scorer. @public
 * @category Policies
 */
export const ORACLE_PREFIX_SCORER = 'oracle-prefix-scorer';
/**
 * Type name of the oracle load scorer. @public
 * @category Policies
 */
export const ORACLE_LOAD_SCORER = 'oracle-queue-scorer';
/**
 * Type name of the oracle KV-utilization scorer. @public
 * @category Policies
 */
export const ORACLE_KV_SCORER = 'oracle-kv-cache-utilization-scorer';

const tokensOf = (r: SchedulingRequest): readonly number[] | undefined => {
  const p = r.request.prompt;
  return p.kind === 'tokens' ? p.tokenIds[0] : undefined;
};

/**
 * Scores each endpoint by the fraction of the request's blocks its engine *really* holds right
 * now (GPU or CPU tier), read from the simulated engine's block manager, or will hold once the
 * requests already queued there are scheduled: what a perfect, zero-latency KV index that also
 * knows in-flight routing would say. Only the simulator can build it.
 * @param fleet - true engine state
 * @param modelName - base model (requests for other models are LoRA adapters)
 * @public
 * @category Policies
 */
export function createOraclePrefixScorer(fleet: FleetView, modelName: string, name: string = ORACLE_PREFIX_SCORER): Scorer {
  const cache = new WeakMap<SchedulingRequest, { bs: number; hashes: number[] }>();
  return arrayScorer(ORACLE_PREFIX_SCORER, name, (_c, request, endpoints, out) => {
    const tokens = tokensOf(request);
    out.fill(0);
    if (tokens === undefined) return;
    for (let i = 0; i < endpoints.length; i++) {
      const engine = fleet.engine((endpoints[i] as Endpoint).id);
      if (engine === undefined) continue;
      const bs = engine.config.blockSize;
      let h = cache.get(request);
      if (h?.bs !== bs) {
        const adapter = request.targetModel === modelName ? undefined : request.targetModel;
        const hashes: number[] = [];
        hashBlocks(tokens, tokens.length, bs, chainRoot(adapter, request.request.cacheSalt), hashes);
        h = { bs, hashes };
        cache.set(request, h);
      }
      const total = h.hashes.length;
      if (total === 0) continue;
      const m = engine.blocks.matchPrefix(h.hashes, Math.floor((tokens.length - 1) / bs));
      // Requests already sent there but not yet scheduled will have cached their prefix by then.
      out[i] = Math.max(m.gpu + m.cpu, engine.queuedPrefixBlocks(h.hashes)) / total;
    }
  });
}

function lowerIsBetter(out: Float64Array): void {
  let min = Infinity;
  let max = -Infinity;
  for (const v of out) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const range = max - min;
  for (let i = 0; i < out.length; i++) out[i] = range === 0 ? 1 : (max - (out[i] ?? 0)) / range;
}

/**
 * Like `queue-scorer`, but on each engine's waiting queue as it is now (no scrape staleness), for
 * custom oracles. The built-in `oracle` policy breaks ties with the scraped `queue-scorer` instead,
 * so that it differs from the policies it is compared with only in what it knows about caches.
 * @public
 * @category Policies
 */
export function createOracleQueueScorer(fleet: FleetView, name: string = ORACLE_LOAD_SCORER): Scorer {
  return arrayScorer(ORACLE_LOAD_SCORER, name, (_c, _r, endpoints, out) => {
    for (let i = 0; i < endpoints.length; i++) out[i] = fleet.engine((endpoints[i] as Endpoint).id)?.snapshot().waiting ?? 0;
    lowerIsBetter(out);
  });
}

/**
 * Like `kv-cache-utilization-scorer` (1 − usage), on each engine's usage as it is now (for custom
 * oracles; see {@link createOracleQueueScorer}).
 * @public
 * @category Policies
 */
export function createOracleKvScorer(fleet: FleetView, name: string = ORACLE_KV_SCORER): Scorer {
  return arrayScorer(ORACLE_KV_SCORER, name, (_c, _r, endpoints, out) => {
    for (let i = 0; i < endpoints.length; i++) {
      const e = fleet.engine((endpoints[i] as Endpoint).id);
      out[i] = e === undefined ? 0 : 1 - e.blocks.numUsed / e.blocks.numBlocks;
    }
  });
}
