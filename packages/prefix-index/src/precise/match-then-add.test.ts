import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '@switchyard/core';
import { createPrefixHasher, PreciseKvIndex, type BlockKeys } from '@switchyard/prefix-index';
import { FakeEngine, seq } from '../test-support/fake-engine.js';

const hasher = createPrefixHasher();
const batch = (...events: Parameters<PreciseKvIndex['ingest']>[1]['events']) => ({ ts: 0, events: [...events] });
const ENDPOINTS = ['a', 'b', 'c'];
// Prompts sharing prefixes, and one request of two prompts with the same keys twice.
const PROMPTS = [seq(24), [...seq(12), ...seq(12, 500)], seq(8, 900)];
const REQUESTS = [[PROMPTS[0]!], [PROMPTS[1]!], [PROMPTS[2]!], [PROMPTS[0]!, PROMPTS[1]!]];

/** A copy of `keys` that no match has seen, so an add of it looks every key up. */
const fresh = (keys: BlockKeys): BlockKeys => ({ chains: keys.chains.map((c) => Float64Array.from(c)), blockSizeTokens: keys.blockSizeTokens, totalBlocks: keys.totalBlocks });

describe('PreciseKvIndex: an add right after a match', () => {
  it('reuses the match\'s holder-list heads with exactly the effect of a plain add (property)', () => {
    const engine = new FakeEngine(4);
    const op = fc.oneof(
      // A pick: match, maybe an event in between (the heads are then stale), then a speculative add (maybe of two endpoints).
      fc.record({ kind: fc.constant('pick' as const), r: fc.nat(REQUESTS.length - 1), ep: fc.constantFrom(...ENDPOINTS), second: fc.option(fc.constantFrom(...ENDPOINTS)), between: fc.option(fc.record({ kind: fc.constantFrom('store', 'remove', 'clear', 'wait'), ep: fc.constantFrom(...ENDPOINTS), p: fc.nat(PROMPTS.length - 1), to: fc.integer({ min: 1, max: 6 }) })) }),
      fc.record({ kind: fc.constant('store' as const), ep: fc.constantFrom(...ENDPOINTS), p: fc.nat(PROMPTS.length - 1), to: fc.integer({ min: 1, max: 6 }) }),
      fc.record({ kind: fc.constant('remove' as const), ep: fc.constantFrom(...ENDPOINTS), p: fc.nat(PROMPTS.length - 1), block: fc.nat(5) }),
      fc.record({ kind: fc.constant('clear' as const), ep: fc.constantFrom(...ENDPOINTS) }),
      fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 1, max: 1500 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
        const clock = new ManualClock(0);
        const options = { hasher, blockSizeTokens: 4, modelName: 'm', clock, speculativeTtlMs: 2000 };
        const reused = new PreciseKvIndex(options);
        const plain = new PreciseKvIndex(options);
        const both = (fn: (index: PreciseKvIndex) => void): void => {
          fn(reused);
          fn(plain);
        };
        for (const o of ops) {
          if (o.kind === 'pick') {
            const prompts = REQUESTS[o.r]!;
            const keys = reused.keysFor(prompts, 'm');
            expect(reused.match(keys, ENDPOINTS)).toEqual(plain.match(plain.keysFor(prompts, 'm'), ENDPOINTS));
            const between = o.between;
            // Whatever happens in between (entries created, freed, reused for other keys) the add must stay exact.
            if (between?.kind === 'store') both((i) => { i.ingest(between.ep, batch(engine.stored(PROMPTS[between.p]!, 0, between.to))); });
            if (between?.kind === 'remove') both((i) => { i.ingest(between.ep, batch(engine.removed(PROMPTS[between.p]!, [between.to - 1]))); });
            if (between?.kind === 'clear') both((i) => { i.clearEndpoint(between.ep); });
            if (between?.kind === 'wait') clock.advance(2000);
            reused.add(o.ep, keys);
            plain.add(o.ep, fresh(keys));
            if (o.second !== null) {
              reused.add(o.second, keys);
              plain.add(o.second, fresh(keys));
            }
          } else if (o.kind === 'store') {
            both((i) => { i.ingest(o.ep, batch(engine.stored(PROMPTS[o.p]!, 0, o.to))); });
          } else if (o.kind === 'remove') {
            both((i) => { i.ingest(o.ep, batch(engine.removed(PROMPTS[o.p]!, [o.block]))); });
          } else if (o.kind === 'clear') {
            both((i) => { i.clearEndpoint(o.ep); });
          } else {
            clock.advance(o.ms);
          }
          expect(reused.size).toBe(plain.size);
          for (const prompts of REQUESTS) expect(reused.match(fresh(reused.keysFor(prompts, 'm')))).toEqual(plain.match(plain.keysFor(prompts, 'm')));
        }
      }),
      { numRuns: 300 },
    );
  });
});
