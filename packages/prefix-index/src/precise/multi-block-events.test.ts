import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '@switchyard/core';
import { createPrefixHasher, PreciseKvIndex, type KvEvent } from '@switchyard/prefix-index';

const hasher = createPrefixHasher();
const ENGINE_BLOCK = 4;
const ENDPOINTS = ['a', 'b'];

/**
 * One BlockStored of `n` blocks is the same as `n` BlockStored of one block each, chained through
 * their parents: the same request keys, records and counts. A multi-block event looks all its
 * records and holder-list heads up before applying any block, so this checks that shortcut
 * against the block-at-a-time path, with hashes repeated inside an event, blocks stored again,
 * removals and speculative adds in between.
 */
describe('PreciseKvIndex: a multi-block BlockStored', () => {
  it('has exactly the effect of its blocks stored one event at a time (property)', () => {
    // Blocks are drawn as token patterns (few, so chains share prefixes and are stored again);
    // the engine's hash of a block is a fresh id per (parent hash, pattern), as a real engine's
    // chained hash is, so equal hashes always mean equal content.
    const store = fc.record({
      kind: fc.constant('store' as const),
      ep: fc.constantFrom(...ENDPOINTS),
      parent: fc.option(fc.nat(30), { nil: undefined }),
      patterns: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 6 }),
      medium: fc.constantFrom('gpu', 'cpu'),
    });
    const op = fc.oneof(
      store,
      store,
      fc.record({ kind: fc.constant('remove' as const), ep: fc.constantFrom(...ENDPOINTS), picks: fc.array(fc.nat(30), { minLength: 1, maxLength: 3 }), medium: fc.constantFrom('gpu', 'cpu') }),
      fc.record({ kind: fc.constant('speculate' as const), ep: fc.constantFrom(...ENDPOINTS), chain: fc.nat(30) }),
      fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 1, max: 1500 }) }),
    );
    // Request blocks smaller than, equal to and larger than the engine's (several keys per block, one, pending tokens).
    fc.assert(
      fc.property(fc.constantFrom(2, 4, 8), fc.array(op, { maxLength: 60 }), (requestBlock, ops) => {
        const clock = new ManualClock(0);
        const options = { hasher, blockSizeTokens: requestBlock, modelName: 'm', clock, speculativeTtlMs: 1000 };
        // An event naming a parent the endpoint does not hold is dropped whole; its singles would
        // not be (a later block may be known), so such events are left out of the comparison.
        const problems: string[] = [];
        const whole = new PreciseKvIndex({ ...options, observer: { problem: (cause) => { problems.push(cause); } } });
        const split = new PreciseKvIndex(options);
        const ids = new Map<string, number>();
        /** Engine hashes stored so far, with each one's full token prefix. */
        const known: { hash: number; tokens: number[] }[] = [];
        const hashOf = (parent: number | undefined, pattern: number): number => {
          const k = `${parent ?? 0}:${pattern}`;
          let h = ids.get(k);
          if (h === undefined) ids.set(k, (h = ids.size + 1));
          return h;
        };
        const blockTokens = (pattern: number): number[] => Array.from({ length: ENGINE_BLOCK }, (_, i) => (pattern * 3 + i) % 5);
        for (const o of ops) {
          if (o.kind === 'store') {
            const base = o.parent === undefined || known.length === 0 ? undefined : known[o.parent % known.length];
            let parent = base?.hash;
            let prefix = base?.tokens ?? [];
            const hashes: number[] = [];
            const tokens: number[] = [];
            for (const pattern of o.patterns) {
              const h = hashOf(parent, pattern);
              const t = blockTokens(pattern);
              hashes.push(h);
              tokens.push(...t);
              prefix = [...prefix, ...t];
              known.push({ hash: h, tokens: prefix });
              parent = h;
            }
            const event: KvEvent = { type: 'BlockStored', blockHashes: hashes, parentBlockHash: base?.hash, tokenIds: tokens, blockSize: ENGINE_BLOCK, medium: o.medium };
            problems.length = 0;
            whole.ingest(o.ep, { ts: 0, events: [event] });
            if (problems.includes('unknown-parent')) continue;
            const singles: KvEvent[] = hashes.map((h, j) => ({
              type: 'BlockStored',
              blockHashes: [h],
              parentBlockHash: j === 0 ? base?.hash : hashes[j - 1],
              tokenIds: tokens.slice(j * ENGINE_BLOCK, (j + 1) * ENGINE_BLOCK),
              blockSize: ENGINE_BLOCK,
              medium: o.medium,
            }));
            split.ingest(o.ep, { ts: 0, events: singles });
          } else if (o.kind === 'remove') {
            if (known.length === 0) continue;
            const event: KvEvent = { type: 'BlockRemoved', blockHashes: o.picks.map((p) => (known[p % known.length] as { hash: number }).hash), medium: o.medium };
            whole.ingest(o.ep, { ts: 0, events: [event] });
            split.ingest(o.ep, { ts: 0, events: [event] });
          } else if (o.kind === 'speculate') {
            if (known.length === 0) continue;
            const tokens = (known[o.chain % known.length] as { tokens: number[] }).tokens;
            whole.add(o.ep, whole.keysFor([tokens], 'm'));
            split.add(o.ep, split.keysFor([tokens], 'm'));
          } else {
            clock.advance(o.ms);
          }
          expect(whole.size).toBe(split.size);
        }
        for (const ep of ENDPOINTS) expect(whole.engineBlocks(ep)).toBe(split.engineBlocks(ep));
        for (const { tokens } of known) {
          const a = whole.match(whole.keysFor([tokens], 'm'));
          const b = split.match(split.keysFor([tokens], 'm'));
          expect([...a.byEndpoint].sort()).toEqual([...b.byEndpoint].sort());
        }
      }),
      { numRuns: 400 },
    );
  });

  it('counts a hash repeated inside one event as one block stored twice', () => {
    const index = new PreciseKvIndex({ hasher, blockSizeTokens: ENGINE_BLOCK, modelName: 'm' });
    const tokens = [1, 2, 3, 4, 5, 6, 7, 8];
    index.ingest('a', { ts: 0, events: [{ type: 'BlockStored', blockHashes: [9, 9], parentBlockHash: undefined, tokenIds: tokens, blockSize: ENGINE_BLOCK, medium: 'gpu' }] });
    expect(index.engineBlocks('a')).toBe(1);
    // Only the first block's key: the second block reused the record the first one created.
    expect(index.size).toBe(1);
    const keys = index.keysFor([tokens], 'm');
    expect(index.match(keys).byEndpoint.get('a')?.cachedBlocks).toBe(1);
    const removed = { ts: 0, events: [{ type: 'BlockRemoved' as const, blockHashes: [9], medium: 'gpu' }] };
    index.ingest('a', removed);
    expect(index.match(keys).byEndpoint.get('a')?.cachedBlocks).toBe(1);
    index.ingest('a', removed);
    expect(index.match(keys).byEndpoint.has('a')).toBe(false);
    expect(index.engineBlocks('a')).toBe(0);
  });
});
