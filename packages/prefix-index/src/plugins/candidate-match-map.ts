import type { PrefixMatchInfo } from '@switchyard/core';
import type { EndpointMatch } from '../api/types.js';
import { matchInfo } from '../api/records.js';

/**
 * The per-candidate `PrefixMatchInfo` of one request as a read-only map that is built lazily:
 * every candidate has an entry (zero when it holds nothing, as llm-d does), but only the
 * endpoints that matched get a record of their own; the others share one zero record. Over a
 * 1,000-endpoint pool the eager map cost 1,000 allocations and `Map.set`s per decision although a
 * prompt is usually held by a handful of endpoints.
 *
 * `matches` must hold candidates only (the indexes' `match(keys, candidateIds)` guarantees it).
 * @internal
 */
export class CandidateMatchMap implements ReadonlyMap<string, PrefixMatchInfo> {
  readonly #ids: readonly string[];
  readonly #matches: ReadonlyMap<string, EndpointMatch>;
  readonly #totalBlocks: number;
  readonly #blockSizeTokens: number;
  readonly #records = new Map<string, PrefixMatchInfo>();
  readonly #zero: PrefixMatchInfo;
  /** Built on the first lookup of an id that did not match: is it a candidate at all? */
  #candidates: Set<string> | undefined;

  constructor(ids: readonly string[], matches: ReadonlyMap<string, EndpointMatch>, totalBlocks: number, blockSizeTokens: number) {
    this.#ids = ids;
    this.#matches = matches;
    this.#totalBlocks = totalBlocks;
    this.#blockSizeTokens = blockSizeTokens;
    this.#zero = matchInfo(0, totalBlocks, blockSizeTokens, 0);
  }

  /**
   * The info of an id known to be a candidate (a scorer's endpoints are), without the candidacy
   * check `get` makes for ids that matched nothing.
   */
  ofCandidate(id: string): PrefixMatchInfo {
    const m = this.#matches.get(id);
    return m === undefined ? this.#zero : this.#record(id, m);
  }

  get(id: string): PrefixMatchInfo | undefined {
    const m = this.#matches.get(id);
    if (m !== undefined) return this.#record(id, m);
    this.#candidates ??= new Set(this.#ids);
    return this.#candidates.has(id) ? this.#zero : undefined;
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  get size(): number {
    return this.#ids.length;
  }

  forEach(fn: (value: PrefixMatchInfo, key: string, map: ReadonlyMap<string, PrefixMatchInfo>) => void, thisArg?: unknown): void {
    for (const id of this.#ids) fn.call(thisArg, this.ofCandidate(id), id, this);
  }

  *entries(): MapIterator<[string, PrefixMatchInfo]> {
    for (const id of this.#ids) yield [id, this.ofCandidate(id)];
  }

  *keys(): MapIterator<string> {
    yield* this.#ids;
  }

  *values(): MapIterator<PrefixMatchInfo> {
    for (const id of this.#ids) yield this.ofCandidate(id);
  }

  [Symbol.iterator](): MapIterator<[string, PrefixMatchInfo]> {
    return this.entries();
  }

  #record(id: string, m: EndpointMatch): PrefixMatchInfo {
    let r = this.#records.get(id);
    if (r === undefined) {
      r = matchInfo(Math.trunc(m.weightedBlocks), this.#totalBlocks, this.#blockSizeTokens, m.cachedBlocks);
      this.#records.set(id, r);
    }
    return r;
  }
}
