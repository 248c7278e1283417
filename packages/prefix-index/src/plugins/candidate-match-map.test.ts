import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { EndpointMatch } from '../api/types.js';
import { CandidateMatchMap } from './candidate-match-map.js';

/** What publishMatchInfo built before: one record per candidate, zero for those without a match. */
function eager(ids: readonly string[], matches: ReadonlyMap<string, EndpointMatch>, total: number, bs: number): Map<string, object> {
  const out = new Map<string, object>();
  for (const id of ids) {
    const m = matches.get(id) ?? { weightedBlocks: 0, cachedBlocks: 0 };
    out.set(id, { matchBlocks: Math.trunc(m.weightedBlocks), totalBlocks: total, blockSizeTokens: bs, cachedBlocks: m.cachedBlocks });
  }
  return out;
}

const plain = (v: unknown): unknown => (v === undefined ? undefined : { ...(v as object) });

describe('CandidateMatchMap', () => {
  it('reads like the eager per-candidate map, for candidates and for other ids', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { maxLength: 30 }),
        fc.array(fc.tuple(fc.nat(29), fc.double({ min: 0, max: 50, noNaN: true }), fc.integer({ min: 1, max: 50 })), { maxLength: 10 }),
        fc.integer({ min: 0, max: 60 }),
        fc.array(fc.integer({ min: 0, max: 60 }), { maxLength: 20 }),
        (idNums, hits, total, probes) => {
          const ids = idNums.map((n) => `pod-${n}`);
          const matches = new Map<string, EndpointMatch>();
          for (const [at, weighted, cached] of hits) if (ids[at] !== undefined) matches.set(ids[at], { weightedBlocks: weighted, cachedBlocks: cached });
          const lazy = new CandidateMatchMap(ids, matches, total, 16);
          const want = eager(ids, matches, total, 16);
          expect(lazy.size).toBe(want.size);
          expect([...lazy.keys()]).toEqual([...want.keys()]);
          expect([...lazy.values()].map(plain)).toEqual([...want.values()].map(plain));
          expect([...lazy].map(([k, v]) => [k, plain(v)])).toEqual([...want].map(([k, v]) => [k, plain(v)]));
          const seen: [string, unknown][] = [];
          lazy.forEach((v, k) => seen.push([k, plain(v)]));
          expect(seen).toEqual([...want].map(([k, v]) => [k, plain(v)]));
          for (const p of probes) {
            const id = `pod-${p}`;
            expect(plain(lazy.get(id))).toEqual(plain(want.get(id)));
            expect(lazy.has(id)).toBe(want.has(id));
            if (want.has(id)) expect(plain(lazy.ofCandidate(id))).toEqual(plain(want.get(id)));
          }
        },
      ),
    );
  });

  it('returns the same record for repeated reads of a matched endpoint', () => {
    const lazy = new CandidateMatchMap(['a', 'b'], new Map([['a', { weightedBlocks: 2.7, cachedBlocks: 3 }]]), 4, 16);
    expect(lazy.get('a')).toBe(lazy.ofCandidate('a'));
    expect(lazy.get('a')).toMatchObject({ matchBlocks: 2, cachedBlocks: 3, totalBlocks: 4 });
    expect(lazy.get('b')).toMatchObject({ matchBlocks: 0, cachedBlocks: 0 });
    expect(lazy.get('c')).toBeUndefined();
  });
});
