import type { BlockKeys, EndpointMatch, PrefixMatchResult } from '../api/types.js';
import type { EndpointSlots } from '../table/endpoint-slots.js';
import type { HolderTable } from './holder-table.js';

/**
 * Longest-prefix matching over a {@link HolderTable}: per endpoint, the run of leading blocks it
 * holds, each weighted by its best tier, summed over the request's prompts. Scratch arrays are
 * indexed by endpoint slot and reused, so a match allocates only its result.
 * @internal
 */
export class LongestPrefixMatcher {
  #run = new Int32Array(64);
  #cached = new Int32Array(64);
  #weighted = new Float64Array(64);
  #touched = new Int32Array(64);

  match(holders: HolderTable, weights: Float64Array, slots: EndpointSlots, keys: BlockKeys, endpointIds: readonly string[] | undefined): PrefixMatchResult {
    this.#ensure(slots.capacity);
    const run = this.#run;
    const cached = this.#cached;
    const weighted = this.#weighted;
    const touched = this.#touched;
    let nTouched = 0;
    const data = holders.data;
    const S = holders.stride;
    const table = holders.table;
    for (const chain of keys.chains) {
      for (let i = 0; i < chain.length; i++) {
        let advanced = false;
        for (let e = table.get(chain[i] as number); e !== -1; e = data[e * S + 1] as number) {
          const s = data[e * S] as number;
          // Only endpoints that held every earlier block of this chain continue their run.
          if (run[s] !== i) continue;
          if (cached[s] === 0) touched[nTouched++] = s;
          run[s] = i + 1;
          cached[s] = (cached[s] as number) + 1;
          weighted[s] = (weighted[s] as number) + holders.weightOf(e, weights);
          advanced = true;
        }
        if (!advanced) break;
      }
      for (let t = 0; t < nTouched; t++) run[touched[t] as number] = 0;
    }
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

  #ensure(need: number): void {
    if (this.#run.length >= need) return;
    this.#run = new Int32Array(need * 2);
    this.#cached = new Int32Array(need * 2);
    this.#weighted = new Float64Array(need * 2);
    this.#touched = new Int32Array(need * 2);
  }
}
