import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createPrefixHasher,
  effectiveBlockSizeTokens,
  encodePromptBytes,
  maxBlocksToMatch,
  tokensToBytes,
  bytesToTokens,
  type PrefixHasher,
} from '@switchyard/prefix-index';
import { EndpointPool } from '@switchyard/core';
import type { EndpointMetrics } from '@switchyard/core';

let hasher: PrefixHasher;
beforeAll(() => {
  hasher = createPrefixHasher();
});

const metrics = (cacheBlockSize: number): EndpointMetrics => ({
  waitingQueueSize: 0,
  runningRequestsSize: 0,
  kvCacheUsagePercent: 0,
  activeModels: [],
  waitingModels: [],
  maxActiveModels: 0,
  cacheBlockSize,
  cacheNumBlocks: 1000,
  updatedAt: 0,
});

describe('chained block hashing', () => {
  it('cuts 10 tokens at bs=4 into [1-4],[5-8],[9,10] including the partial tail', () => {
    const tokens = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const root = hasher.rootKey('m');
    const keys = hasher.chainTokens(tokens, root, { blockSizeTokens: 4 });
    expect(keys.length).toBe(3);
    const k0 = hasher.blockKey(root, tokensToBytes([1, 2, 3, 4]));
    const k1 = hasher.blockKey(k0, tokensToBytes([5, 6, 7, 8]));
    const k2 = hasher.blockKey(k1, tokensToBytes([9, 10]));
    expect([...keys]).toEqual([k0, k1, k2]);
    expect(hasher.chainTokens(tokens, root, { blockSizeTokens: 4, includePartial: false }).length).toBe(2);
  });

  it('changes every key when the cache salt or the model changes', () => {
    const bytes = encodePromptBytes({ kind: 'text', texts: ['x'.repeat(1000)] });
    const opts = { blockSizeTokens: 4 };
    const a = hasher.hashPrompts(bytes, 'm', 'salt-a', opts).chains[0]!;
    const b = hasher.hashPrompts(bytes, 'm', 'salt-b', opts).chains[0]!;
    const c = hasher.hashPrompts(bytes, 'other', 'salt-a', opts).chains[0]!;
    const a2 = hasher.hashPrompts(bytes, 'm', 'salt-a', opts).chains[0]!;
    expect([...a]).toEqual([...a2]);
    for (let i = 0; i < a.length; i++) {
      expect(a[i]).not.toBe(b[i]);
      expect(a[i]).not.toBe(c[i]);
    }
  });

  it('keys are 53-bit non-negative integers', () => {
    const keys = hasher.chainTokens([...Array(400).keys()], hasher.rootKey('m'), { blockSizeTokens: 16 });
    for (const k of keys) {
      expect(Number.isSafeInteger(k)).toBe(true);
      expect(k).toBeGreaterThanOrEqual(0);
    }
  });

  it('caps the number of blocks', () => {
    const keys = hasher.chainTokens([...Array(100).keys()], 1, { blockSizeTokens: 1, maxBlocks: 2 });
    expect(keys.length).toBe(2);
  });

  it('hashes a chat as tools + role + content per message, covering the whole conversation', () => {
    const [bytes] = encodePromptBytes({
      kind: 'chat',
      toolsJson: '[]',
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'yo' },
      ],
    });
    expect(Buffer.from(bytes!).toString('utf8')).toBe('[]userhiassistantyo\0');
    expect(bytes!.byteLength % 4).toBe(0);
    const turn1 = encodePromptBytes({ kind: 'chat', toolsJson: undefined, messages: [{ role: 'user', content: 'a'.repeat(252) }] });
    const turn2 = encodePromptBytes({
      kind: 'chat',
      toolsJson: undefined,
      messages: [
        { role: 'user', content: 'a'.repeat(252) },
        { role: 'assistant', content: 'b'.repeat(300) },
      ],
    });
    const k1 = hasher.hashPrompts(turn1, 'm', undefined, { blockSizeTokens: 64 });
    const k2 = hasher.hashPrompts(turn2, 'm', undefined, { blockSizeTokens: 64 });
    expect(k1.totalBlocks).toBe(1);
    expect(k2.totalBlocks).toBe(3);
    expect(k2.chains[0]![0]).toBe(k1.chains[0]![0]);
  });

  it('token-id prompts and text prompts with the same bytes hash the same', () => {
    const text = encodePromptBytes({ kind: 'text', texts: ['abcdefgh'] });
    const tokens = encodePromptBytes({ kind: 'tokens', tokenIds: [[0x64636261, 0x68676665]] });
    expect(Buffer.from(text[0]!).equals(Buffer.from(tokens[0]!))).toBe(true);
    expect(bytesToTokens(tokens[0]!)).toEqual([0x64636261, 0x68676665]);
    expect(encodePromptBytes({ kind: 'none' })).toEqual([]);
  });

  it('gives every prompt of a multi-prompt request its own chain', () => {
    const keys = hasher.hashPrompts(encodePromptBytes({ kind: 'text', texts: ['a'.repeat(8), 'a'.repeat(8)] }), 'm', undefined, { blockSizeTokens: 1 });
    expect(keys.chains.length).toBe(2);
    expect([...keys.chains[0]!]).toEqual([...keys.chains[1]!]);
    expect(keys.totalBlocks).toBe(4);
  });

  it('is prefix-stable: a prompt extending another shares the keys of its full blocks', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 600 }), fc.uint8Array({ maxLength: 300 }), fc.integer({ min: 1, max: 20 }), (a, b, bs) => {
        const blockBytes = bs * 4;
        const head = a.subarray(0, a.length - (a.length % blockBytes));
        const full = new Uint8Array(head.length + b.length + ((4 - (b.length % 4)) % 4));
        full.set(head);
        full.set(b, head.length);
        const k1 = hasher.chainBytes(head, 7, { blockSizeTokens: bs });
        const k2 = hasher.chainBytes(full, 7, { blockSizeTokens: bs });
        expect([...k2.subarray(0, k1.length)]).toEqual([...k1]);
      }),
      { numRuns: 200 },
    );
  });
});

describe('block size and cap', () => {
  it('auto-tunes from the first candidate and applies the 64-token floor', () => {
    const pool = new EndpointPool();
    pool.add({ id: 'a', address: '10.0.0.1:8000' });
    expect(effectiveBlockSizeTokens(16, true, pool.list())).toBe(64);
    pool.setMetrics('a', metrics(16));
    expect(effectiveBlockSizeTokens(16, true, pool.list())).toBe(64);
    pool.setMetrics('a', metrics(128));
    expect(effectiveBlockSizeTokens(16, true, pool.list())).toBe(128);
    expect(effectiveBlockSizeTokens(128, false, [])).toBe(128);
    expect(effectiveBlockSizeTokens(1, false, [], 1)).toBe(1);
  });

  it('derives the block cap from tokens first, then blocks', () => {
    expect(maxBlocksToMatch(131072, 2048, 64)).toBe(2048);
    expect(maxBlocksToMatch(2, 0, 1)).toBe(2);
    expect(maxBlocksToMatch(0, 100, 64)).toBe(100);
    expect(maxBlocksToMatch(0, 0, 64)).toBe(0);
  });
});
