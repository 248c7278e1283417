import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApproximatePrefixIndex, type BlockKeys } from '@switchyard/prefix-index';

const keysOf = (...chains: number[][]): BlockKeys => ({
  chains: chains.map((c) => Float64Array.from(c)),
  blockSizeTokens: 1,
  totalBlocks: chains.reduce((n, c) => n + c.length, 0),
});

/** Reference model: per endpoint a Map in LRU order (first = least recent). */
class ModelIndex {
  readonly lrus = new Map<string, Map<number, true>>();
  constructor(readonly capacity: (id: string) => number) {}
  add(id: string, keys: BlockKeys): void {
    let lru = this.lrus.get(id);
    if (lru === undefined) {
      lru = new Map();
      this.lrus.set(id, lru);
    }
    const cap = this.capacity(id);
    for (let c = keys.chains.length - 1; c >= 0; c--) {
      const chain = keys.chains[c]!;
      for (let i = chain.length - 1; i >= 0; i--) {
        const k = chain[i]!;
        lru.delete(k);
        lru.set(k, true);
        if (lru.size > cap) lru.delete(lru.keys().next().value!);
      }
    }
  }
  match(keys: BlockKeys): Map<string, number> {
    const out = new Map<string, number>();
    for (const chain of keys.chains) {
      for (const k of chain) {
        const holders = [...this.lrus].filter(([, lru]) => lru.has(k)).map(([id]) => id);
        if (holders.length === 0) break;
        for (const h of holders) out.set(h, (out.get(h) ?? 0) + 1);
      }
    }
    return out;
  }
}

describe('ApproximatePrefixIndex', () => {
  it('matches llm-d case 8: [1,2] on pod1 and pod3, then [1,3] → pod1 1/2, pod3 1/2, pod2 0/2', () => {
    const index = new ApproximatePrefixIndex();
    index.add('pod1', keysOf([1, 2]));
    index.add('pod3', keysOf([1, 2]));
    const r = index.match(keysOf([1, 3]), ['pod1', 'pod2', 'pod3']);
    expect(r.totalBlocks).toBe(2);
    expect(r.byEndpoint.get('pod1')).toEqual({ weightedBlocks: 1, cachedBlocks: 1 });
    expect(r.byEndpoint.get('pod3')).toEqual({ weightedBlocks: 1, cachedBlocks: 1 });
    expect(r.byEndpoint.has('pod2')).toBe(false);
  });

  it('stops at the first block nobody holds, counting non-contiguous holders', () => {
    const index = new ApproximatePrefixIndex();
    index.add('a', keysOf([1, 2, 3]));
    index.add('b', keysOf([1]));
    index.add('b', keysOf([3]));
    const r = index.match(keysOf([1, 2, 3, 4, 5]));
    expect(r.byEndpoint.get('a')?.cachedBlocks).toBe(3);
    expect(r.byEndpoint.get('b')?.cachedBlocks).toBe(2);
  });

  it('evicts least recently used blocks at the hard capacity, keeping the head of the prompt', () => {
    const index = new ApproximatePrefixIndex({ capacityFor: () => 3 });
    index.add('a', keysOf([1, 2, 3]));
    index.add('a', keysOf([10, 11]));
    expect(index.endpointSize('a')).toBe(3);
    // [1,2,3] went in tail first (3, 2, 1), so 3 and 2 were the least recent.
    expect(index.holders(1)).toEqual(['a']);
    expect(index.holders(2)).toEqual([]);
    expect(index.holders(3)).toEqual([]);
    expect(index.stats().evictions).toBe(2);
    // Tail-first insertion: the head of the newest prompt is the most recent block.
    index.add('a', keysOf([20, 21, 22, 23]));
    expect(index.holders(20)).toEqual(['a']);
    expect(index.holders(23)).toEqual([]);
  });

  it('purges a departed endpoint and its reverse-map entries', () => {
    const index = new ApproximatePrefixIndex();
    index.add('a', keysOf([1, 2]));
    index.add('b', keysOf([1, 2]));
    const removed: string[] = [];
    index.on('endpointRemoved', (id) => removed.push(id));
    index.removeEndpoint('a');
    expect(removed).toEqual(['a']);
    expect(index.holders(1)).toEqual(['b']);
    expect(index.size).toBe(2);
    index.removeEndpoint('b');
    expect(index.stats()).toMatchObject({ entries: 0, blocks: 0, endpoints: 0 });
    expect(index.match(keysOf([1, 2])).byEndpoint.size).toBe(0);
  });

  it('emits added events for cross-replica syncing', () => {
    const index = new ApproximatePrefixIndex();
    const seen: string[] = [];
    index.on('added', (id, keys) => seen.push(`${id}:${keys.totalBlocks}`));
    index.add('a', keysOf([1, 2]));
    index.add('a', keysOf([]));
    expect(seen).toEqual(['a:2']);
  });

  it('agrees with a reference model and never exceeds capacities (property)', () => {
    const ids = ['e0', 'e1', 'e2', 'e3'];
    const chain = fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 12 });
    const op = fc.oneof(
      { weight: 5, arbitrary: fc.record({ kind: fc.constant('add' as const), id: fc.constantFrom(...ids), chains: fc.array(chain, { minLength: 1, maxLength: 2 }) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), id: fc.constantFrom(...ids) }) },
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('match' as const), chains: fc.array(chain, { minLength: 1, maxLength: 2 }) }) },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), fc.integer({ min: 1, max: 8 }), (ops, baseCap) => {
        const capacity = (id: string): number => baseCap + ids.indexOf(id);
        const index = new ApproximatePrefixIndex({ capacityFor: capacity });
        const model = new ModelIndex(capacity);
        for (const o of ops) {
          if (o.kind === 'add') {
            const k = keysOf(...o.chains);
            index.add(o.id, k);
            model.add(o.id, k);
          } else if (o.kind === 'remove') {
            index.removeEndpoint(o.id);
            model.lrus.delete(o.id);
          } else {
            const k = keysOf(...o.chains);
            const got = new Map([...index.match(k).byEndpoint].map(([id, m]) => [id, m.cachedBlocks]));
            expect(got).toEqual(model.match(k));
          }
          let total = 0;
          for (const id of ids) {
            const n = index.endpointSize(id);
            expect(n).toBeLessThanOrEqual(capacity(id));
            expect(n).toBe(model.lrus.get(id)?.size ?? 0);
            total += n;
          }
          expect(index.size).toBe(total);
          const blocks = new Set<number>();
          for (const lru of model.lrus.values()) for (const k of lru.keys()) blocks.add(k);
          expect(index.stats().blocks).toBe(blocks.size);
          for (const k of blocks) {
            const holders = [...model.lrus].filter(([, lru]) => lru.has(k)).map(([id]) => id).sort();
            expect(index.holders(k).sort()).toEqual(holders);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
