import type { BlockKeys, EndpointMatch, PrefixMatchResult } from '../api/types.js';
import type { EndpointSlots } from '../table/endpoint-slots.js';
import type { HolderTable } from './holder-table.js';

/** A key the last match did not look up. */
const UNKNOWN = -2;
/** Keys looked up ahead of the walk, at most (the first batch is smaller: a cold request stops at once). */
const MAX_BATCH = 64;
const FIRST_BATCH = 8;

/**
 * Longest-prefix matching over a {@link HolderTable}: per endpoint, the run of leading blocks it
 * holds, each weighted by its best tier, summed over the request's prompts. Scratch arrays are
 * indexed by endpoint slot and reused, so a match allocates only its result.
 *
 * Keys are looked up in batches before their holders are walked: in a table far larger than the
 * CPU cache nearly every lookup misses it, and a tight loop of independent lookups lets the CPU
 * overlap those misses instead of waiting for each in turn. The batch grows from 8 to 64 keys, so
 * a request that stops early looks up few keys in vain. The heads found are kept with the table's
 * version ({@link LongestPrefixMatcher.headsFor}) so that a speculative add of the same keys right
 * after the match need not look them up again.
 * @internal
 */
export class LongestPrefixMatcher {
  #run = new Int32Array(64);
  #cached = new Int32Array(64);
  #weighted = new Float64Array(64);
  #touched = new Int32Array(64);
  /** Head entry of each key of the last match (flat over its chains), or UNKNOWN. */
  #heads = new Int32Array(1024);
  #headsOf: BlockKeys | undefined;
  #headsVersion = -1;

  match(holders: HolderTable, weights: Float64Array, slots: EndpointSlots, keys: BlockKeys, endpointIds: readonly string[] | undefined): PrefixMatchResult {
    this.#ensure(slots.capacity);
    const run = this.#run;
    const cached = this.#cached;
    const weighted = this.#weighted;
    const touched = this.#touched;
    const heads = this.#headsBuffer(keys.totalBlocks);
    let nTouched = 0;
    const data = holders.data;
    const S = holders.stride;
    const table = holders.table;
    let base = 0;
    for (const chain of keys.chains) {
      const n = chain.length;
      let i = 0;
      let looked = 0;
      let batch = FIRST_BATCH;
      walk: while (i < n) {
        const end = i + batch < n ? i + batch : n;
        for (let j = i; j < end; j++) heads[base + j] = table.get(chain[j] as number);
        looked = end;
        for (; i < end; i++) {
          let advanced = false;
          for (let e = heads[base + i] as number; e !== -1; e = data[e * S + 1] as number) {
            const s = data[e * S] as number;
            // Only endpoints that held every earlier block of this chain continue their run.
            if (run[s] !== i) continue;
            if (cached[s] === 0) touched[nTouched++] = s;
            run[s] = i + 1;
            cached[s] = (cached[s] as number) + 1;
            weighted[s] = (weighted[s] as number) + holders.weightOf(e, weights);
            advanced = true;
          }
          if (!advanced) break walk;
        }
        if (batch < MAX_BATCH) batch *= 2;
      }
      heads.fill(UNKNOWN, base + looked, base + n);
      for (let t = 0; t < nTouched; t++) run[touched[t] as number] = 0;
      base += n;
    }
    this.#headsOf = keys;
    this.#headsVersion = holders.version;
    const byEndpoint = new Map<string, EndpointMatch>();
    const emit = (s: number, id: string): void => {
      const c = cached[s] as number;
      if (c > 0) byEndpoint.set(id, { weightedBlocks: weighted[s] as number, cachedBlocks: c });
    };
    if (endpointIds === undefined) {
      for (let t = 0; t < nTouched; t++) {
        const s = touched[t] as number;
        const id = slots.idOf(s);
        if (id !== undefined) emit(s, id);
      }
    } else {
      for (const id of endpointIds) {
        const s = slots.get(id);
        if (s >= 0) emit(s, id);
      }
    }
    for (let t = 0; t < nTouched; t++) {
      const s = touched[t] as number;
      cached[s] = 0;
      weighted[s] = 0;
    }
    return { byEndpoint, totalBlocks: keys.totalBlocks };
  }

  /**
   * The head entries the last match found for `keys` (flat over its chains; -1 = no holder,
   * -2 = not looked up), when that match was of this very `keys` object and the table has not
   * changed shape since (`version`); otherwise undefined.
   */
  headsFor(keys: BlockKeys, version: number): Int32Array | undefined {
    return this.#headsOf === keys && this.#headsVersion === version ? this.#heads : undefined;
  }

  #headsBuffer(n: number): Int32Array {
    if (this.#heads.length < n) this.#heads = new Int32Array(Math.max(n, this.#heads.length * 2));
    return this.#heads;
  }

  #ensure(need: number): void {
    if (this.#run.length >= need) return;
    this.#run = new Int32Array(need * 2);
    this.#cached = new Int32Array(need * 2);
    this.#weighted = new Float64Array(need * 2);
    this.#touched = new Int32Array(need * 2);
  }
}
