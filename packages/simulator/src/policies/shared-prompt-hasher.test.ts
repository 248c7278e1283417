import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPrefixHasher, tokensToBytes, type ChainOptions } from '@switchyard/prefix-index';
import { shareTokens } from '../util/shared-prompts.js';
import { SharedPromptHasher } from './shared-prompt-hasher.js';

const plain = createPrefixHasher();

describe('SharedPromptHasher', () => {
  it('gives the keys PrefixHasher gives, for shared and other prompts, whatever the options (property)', () => {
    const options = fc.record({ blockSizeTokens: fc.constantFrom(1, 4, 16, 64), maxBlocks: fc.constantFrom(0, 3, 100), includePartial: fc.boolean() });
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 2 ** 32 - 1 }), { maxLength: 300 }), fc.array(options, { minLength: 1, maxLength: 4 }), fc.boolean(), (ids, opts, share) => {
        const hasher = new SharedPromptHasher();
        const tokens = Uint32Array.from(ids);
        if (share) shareTokens(tokens);
        // Twice each, so the second call is answered from the memo.
        for (const o of [...opts, ...opts] as ChainOptions[]) {
          const root = plain.rootKey('m', 's');
          expect([...hasher.chainTokens(tokens, root, o)]).toEqual([...plain.chainTokens(tokens, root, o)]);
          const prompts = [tokensToBytes(tokens), tokensToBytes(tokens)];
          const got = hasher.hashPrompts(prompts, 'm', 's', o);
          const want = plain.hashPrompts(prompts, 'm', 's', o);
          expect(got.chains.map((c) => [...c])).toEqual(want.chains.map((c) => [...c]));
          expect(got.totalBlocks).toBe(want.totalBlocks);
          expect(got.blockSizeTokens).toBe(want.blockSizeTokens);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('hashes a shared prompt once per root and options, and a view of part of it as usual', () => {
    const hasher = new SharedPromptHasher();
    const tokens = shareTokens(Uint32Array.from({ length: 64 }, (_, i) => i * 7));
    const o = { blockSizeTokens: 16, includePartial: false };
    const root = hasher.rootKey('m');
    expect(hasher.chainTokens(tokens, root, o)).toBe(hasher.chainTokens(tokens, root, o));
    expect(hasher.chainTokens(tokens, root + 1, o)).not.toBe(hasher.chainTokens(tokens, root, o));
    const bytes = tokensToBytes(tokens);
    expect(hasher.hashPrompts([bytes], 'm', undefined, o).chains[0]).toBe(hasher.hashPrompts([tokensToBytes(tokens)], 'm', undefined, o).chains[0]);
    // A view of the first half shares the buffer but is another prompt: hashed afresh, correctly.
    const half = bytes.subarray(0, 128);
    expect([...(hasher.hashPrompts([half], 'm', undefined, o).chains[0] ?? [])]).toEqual([...(plain.hashPrompts([half], 'm', undefined, o).chains[0] ?? [])]);
  });
});
