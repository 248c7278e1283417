import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@switchyard/core';
import { createPrefixHasher, PreciseKvIndex, type KvEvent, type KvIngestProblem, type PrefixHasher } from '@switchyard/prefix-index';
import { FakeEngine, seq } from '../test-support/fake-engine.js';

let hasher: PrefixHasher;
beforeAll(() => {
  hasher = createPrefixHasher();
});

const batch = (...events: KvEvent[]) => ({ ts: 0, events });

function makeIndex(extra: Partial<ConstructorParameters<typeof PreciseKvIndex>[0]> = {}) {
  const problems: KvIngestProblem[] = [];
  const index = new PreciseKvIndex({
    hasher,
    blockSizeTokens: 4,
    modelName: 'm',
    observer: { problem: (cause) => problems.push(cause) },
    ...extra,
  });
  return { index, problems };
}

const cachedOf = (index: PreciseKvIndex, tokens: number[], id: string, model = 'm', salt?: string) =>
  index.match(index.keysFor([tokens], model, salt)).byEndpoint.get(id)?.cachedBlocks ?? 0;

describe('PreciseKvIndex', () => {
  it('recomputes request keys from token ids and follows parent chaining', () => {
    const { index, problems } = makeIndex();
    const engine = new FakeEngine(4);
    const tokens = seq(14);
    index.ingest('a', batch(engine.stored(tokens, 0, 2)));
    index.ingest('a', batch(engine.stored(tokens, 2, 3)));
    expect(problems).toEqual([]);
    const keys = index.keysFor([tokens], 'm');
    expect(keys.totalBlocks).toBe(3); // partial tail dropped
    expect(index.match(keys).byEndpoint.get('a')).toEqual({ weightedBlocks: 3, cachedBlocks: 3 });
    expect(cachedOf(index, [...seq(8), 99, 99, 99, 99], 'a')).toBe(2);
    expect(cachedOf(index, tokens, 'a', 'other-model')).toBe(0);
  });

  it('works whatever the engine block size: 1:many and many:1', () => {
    const tokens = seq(24);
    for (const E of [1, 2, 8, 12, 3]) {
      const { index, problems } = makeIndex();
      const engine = new FakeEngine(E);
      const blocks = Math.floor(24 / E);
      // Stored in two events so the second chains through a parent (with pending tokens when unaligned).
      const half = Math.max(1, Math.floor(blocks / 2));
      index.ingest('a', batch(engine.stored(tokens, 0, half), engine.stored(tokens, half, blocks)));
      expect(problems).toEqual([]);
      expect(cachedOf(index, tokens, 'a')).toBe(6);
    }
  });

  it('matches the longest held prefix per endpoint after removals', () => {
    const { index } = makeIndex();
    const engine = new FakeEngine(4);
    const tokens = seq(16);
    index.ingest('a', batch(engine.stored(tokens, 0, 4)));
    index.ingest('b', batch(engine.stored(tokens, 0, 4)));
    index.ingest('a', batch(engine.removed(tokens, [1])));
    const r = index.match(index.keysFor([tokens], 'm'), ['a', 'b', 'c']);
    expect(r.byEndpoint.get('a')?.cachedBlocks).toBe(1);
    expect(r.byEndpoint.get('b')?.cachedBlocks).toBe(4);
    expect(r.byEndpoint.has('c')).toBe(false);
  });

  it('reference-counts duplicate stores and removals', () => {
    const { index, problems } = makeIndex();
    const engine = new FakeEngine(4);
    const tokens = seq(8);
    index.ingest('a', batch(engine.stored(tokens, 0, 2), engine.stored(tokens, 0, 2)));
    index.ingest('a', batch(engine.removed(tokens, [0, 1])));
    expect(cachedOf(index, tokens, 'a')).toBe(2);
    index.ingest('a', batch(engine.removed(tokens, [0, 1])));
    expect(cachedOf(index, tokens, 'a')).toBe(0);
    expect(index.size).toBe(0);
    expect(index.engineBlocks('a')).toBe(0);
    index.ingest('a', batch(engine.removed(tokens, [0])));
    expect(problems).toEqual(['unknown-block']);
  });

  it('weights tiers: gpu 1.0, cpu 0.8, best tier wins', () => {
    const { index } = makeIndex();
    const engine = new FakeEngine(4);
    const tokens = seq(8);
    index.ingest('a', batch(engine.stored(tokens, 0, 2, { medium: 'cpu' })));
    expect(index.match(index.keysFor([tokens], 'm')).byEndpoint.get('a')).toEqual({ weightedBlocks: 1.6, cachedBlocks: 2 });
    index.ingest('a', batch(engine.stored(tokens, 0, 1, { medium: 'gpu' })));
    expect(index.match(index.keysFor([tokens], 'm')).byEndpoint.get('a')?.weightedBlocks).toBeCloseTo(1.8);
    index.ingest('a', batch(engine.removed(tokens, [0, 1], 'cpu')));
    expect(index.match(index.keysFor([tokens], 'm')).byEndpoint.get('a')).toEqual({ weightedBlocks: 1, cachedBlocks: 1 });
  });

  it('AllBlocksCleared forgets the endpoint', () => {
    const { index } = makeIndex();
    const engine = new FakeEngine(4);
    index.ingest('a', batch(engine.stored(seq(8), 0, 2)));
    index.ingest('a', batch({ type: 'AllBlocksCleared' }));
    expect(cachedOf(index, seq(8), 'a')).toBe(0);
    expect(index.stats()).toMatchObject({ entries: 0, blocks: 0, endpoints: 1 });
  });

  it('roots chains at the LoRA name and the cache salt', () => {
    const { index } = makeIndex();
    const engine = new FakeEngine(4);
    index.ingest('a', batch(engine.stored(seq(8), 0, 2, { loraName: 'adapter', extraKeys: [['adapter', 'salt-1'], ['adapter']] })));
    expect(cachedOf(index, seq(8), 'a', 'adapter', 'salt-1')).toBe(2);
    expect(cachedOf(index, seq(8), 'a', 'adapter')).toBe(0);
    expect(cachedOf(index, seq(8), 'a', 'm', 'salt-1')).toBe(0);
    const sglang = new FakeEngine(4, 5000);
    index.ingest('b', batch(sglang.stored(seq(8), 0, 2, { cacheSalt: 's' })));
    expect(cachedOf(index, seq(8), 'b', 'm', 's')).toBe(2);
  });

  it('uses the topic model when no model name is configured', () => {
    const idx = new PreciseKvIndex({ hasher, blockSizeTokens: 4 });
    const engine = new FakeEngine(4);
    idx.ingest('a', batch(engine.stored(seq(8), 0, 2)), { model: 'topic-model' });
    expect(cachedOf(idx, seq(8), 'a', 'topic-model')).toBe(2);
    expect(idx.kind).toBe('precise');
  });

  it('skips unknown parents, token mismatches, sliding-window groups and unknown endpoints', () => {
    const { index, problems } = makeIndex({ isKnownEndpoint: (id) => id !== 'ghost' });
    const engine = new FakeEngine(4);
    const tokens = seq(12);
    index.ingest('a', batch(engine.stored(tokens, 1, 3)));
    index.ingest('a', batch({ ...engine.stored(tokens, 0, 2), tokenIds: seq(7) }));
    index.ingest('a', batch(engine.stored(tokens, 0, 2, { kvCacheSpecKind: 'sliding_window' })));
    index.ingest('ghost', batch(engine.stored(tokens, 0, 2)));
    expect(problems).toEqual(['unknown-parent', 'token-mismatch', 'skipped-group', 'unknown-endpoint']);
    expect(index.size).toBe(0);
    index.ingest('a', batch(engine.stored(tokens, 0, 2, { kvCacheSpecKind: 'full_attention' })));
    expect(cachedOf(index, tokens, 'a')).toBe(2);
  });

  it('clears an endpoint that overflows its block budget', () => {
    const { index, problems } = makeIndex({ maxBlocksPerEndpoint: 3 });
    const engine = new FakeEngine(4);
    index.ingest('a', batch(engine.stored(seq(16), 0, 4)));
    expect(problems).toEqual(['overflow']);
    expect(index.size).toBe(0);
    expect(index.stats().evictions).toBe(1);
  });

  it('keeps speculative entries until their TTL expires', () => {
    const clock = new ManualClock();
    const { index } = makeIndex({ clock, speculativeTtlMs: 2000 });
    const keys = index.keysFor([seq(8)], 'm');
    index.add('a', keys);
    expect(index.match(keys).byEndpoint.get('a')?.cachedBlocks).toBe(2);
    clock.advance(1999);
    expect(index.match(keys).byEndpoint.get('a')?.cachedBlocks).toBe(2);
    clock.advance(1);
    expect(index.match(keys).byEndpoint.get('a')).toBeUndefined();
    expect(index.size).toBe(0);
  });

  it('ends a speculation when the engine confirms it, so a later removal is not masked', () => {
    const clock = new ManualClock();
    const { index } = makeIndex({ clock, speculativeTtlMs: 60_000 });
    const engine = new FakeEngine(4);
    const tokens = seq(12);
    index.add('a', index.keysFor([tokens], 'm'));
    index.add('b', index.keysFor([tokens], 'm'));
    expect(cachedOf(index, tokens, 'a')).toBe(3);
    // 'a' schedules the request and stores its blocks, then evicts the last one.
    index.ingest('a', batch(engine.stored(tokens, 0, 3)));
    index.ingest('a', batch(engine.removed(tokens, [2])));
    clock.advance(1000);
    expect(cachedOf(index, tokens, 'a')).toBe(2);
    // 'b' never confirmed: its speculation lasts until the TTL.
    expect(cachedOf(index, tokens, 'b')).toBe(3);
    clock.advance(59_000);
    expect(cachedOf(index, tokens, 'b')).toBe(0);
    expect(cachedOf(index, tokens, 'a')).toBe(2);
    index.ingest('a', batch(engine.removed(tokens, [0, 1])));
    expect(index.size).toBe(0);
  });

  it('removeEndpoint drops everything of the endpoint', () => {
    const { index } = makeIndex();
    const engine = new FakeEngine(4);
    index.ingest('a', batch(engine.stored(seq(8), 0, 2)));
    index.ingest('b', batch(engine.stored(seq(8), 0, 2)));
    index.removeEndpoint('a');
    const r = index.match(index.keysFor([seq(8)], 'm'));
    expect([...r.byEndpoint.keys()]).toEqual(['b']);
    expect(index.stats().endpoints).toBe(1);
  });

  it('agrees with a reference model under random stores and removals (property)', () => {
    const E = 2;
    const tokens = [seq(16), [...seq(6), ...seq(10, 100)]];
    const engine = new FakeEngine(E);
    const op = fc.oneof(
      fc.record({ kind: fc.constant('store' as const), ep: fc.constantFrom('a', 'b'), s: fc.nat(1), to: fc.integer({ min: 1, max: 8 }), medium: fc.constantFrom('gpu', 'cpu') }),
      fc.record({ kind: fc.constant('remove' as const), ep: fc.constantFrom('a', 'b'), s: fc.nat(1), block: fc.nat(7), medium: fc.constantFrom('gpu', 'cpu') }),
      fc.record({ kind: fc.constant('clear' as const), ep: fc.constantFrom('a', 'b') }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const index = new PreciseKvIndex({ hasher, blockSizeTokens: 4, modelName: 'm' });
        // model: endpoint → engine hash → medium → refs
        const held = new Map<string, Map<number, Map<string, number>>>();
        const refs = (ep: string) => held.get(ep) ?? held.set(ep, new Map()).get(ep)!;
        for (const o of ops) {
          if (o.kind === 'store') {
            const t = tokens[o.s]!;
            index.ingest(o.ep, batch(engine.stored(t, 0, o.to, { medium: o.medium })));
            for (let j = 0; j < o.to; j++) {
              const h = engine.hashAt(t, (j + 1) * E);
              const m = refs(o.ep).get(h) ?? new Map<string, number>();
              m.set(o.medium, (m.get(o.medium) ?? 0) + 1);
              refs(o.ep).set(h, m);
            }
          } else if (o.kind === 'remove') {
            const t = tokens[o.s]!;
            index.ingest(o.ep, batch(engine.removed(t, [o.block], o.medium)));
            const h = engine.hashAt(t, (o.block + 1) * E);
            const m = refs(o.ep).get(h);
            if (m !== undefined && (m.get(o.medium) ?? 0) > 0) {
              m.set(o.medium, m.get(o.medium)! - 1);
              if ([...m.values()].every((v) => v === 0)) refs(o.ep).delete(h);
            }
          } else {
            index.ingest(o.ep, batch({ type: 'AllBlocksCleared' }));
            held.delete(o.ep);
          }
        }
        for (const t of tokens) {
          const got = index.match(index.keysFor([t], 'm'));
          for (const ep of ['a', 'b']) {
            // A request block (4 tokens) is held on a tier when both engine blocks (2 tokens) ending in it... only the
            // engine block that completes it owns it: block k is owned by engine block 2k+1.
            let cached = 0;
            let weighted = 0;
            for (let k = 0; k < t.length / 4; k++) {
              const m = refs(ep).get(engine.hashAt(t, (k + 1) * 4));
              const w = Math.max(0, ...[...(m ?? new Map<string, number>())].filter(([, v]) => v > 0).map(([med]) => (med === 'gpu' ? 1 : 0.8)));
              if (w === 0) break;
              cached++;
              weighted += w;
            }
            const r = got.byEndpoint.get(ep);
            expect(r?.cachedBlocks ?? 0).toBe(cached);
            expect(r?.weightedBlocks ?? 0).toBeCloseTo(weighted);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
