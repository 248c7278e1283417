import type { PrefixMatchInfo } from '@switchyard/core';
import type { PromptBytes } from '../plugins/attributes.js';
import type { BlockKeys, KeyChain } from './types.js';

/*
 * The per-request values this package stores in request attributes, as class instances rather
 * than object literals: they live as long as the request, and V8 may pretenure a long-lived
 * literal's allocation site, after which every young object the value references (buffers,
 * key chains) survives each young-generation GC until the next full GC.
 */

class BlockKeysRecord implements BlockKeys {
  constructor(
    readonly chains: readonly KeyChain[],
    readonly blockSizeTokens: number,
    readonly totalBlocks: number,
  ) {}
}

class PromptBytesRecord implements PromptBytes {
  constructor(
    readonly prompts: readonly Uint8Array[],
    readonly estimated: boolean,
  ) {}
}

class MatchInfoRecord implements PrefixMatchInfo {
  constructor(
    readonly matchBlocks: number,
    readonly totalBlocks: number,
    readonly blockSizeTokens: number,
    readonly cachedBlocks: number,
  ) {}
}

/** A {@link BlockKeys} value. */
export function blockKeys(chains: readonly KeyChain[], blockSizeTokens: number, totalBlocks: number): BlockKeys {
  return new BlockKeysRecord(chains, blockSizeTokens, totalBlocks);
}

/** A {@link PromptBytes} value. */
export function promptBytes(prompts: readonly Uint8Array[], estimated: boolean): PromptBytes {
  return new PromptBytesRecord(prompts, estimated);
}

/** A `PrefixMatchInfo` value. */
export function matchInfo(matchBlocks: number, totalBlocks: number, blockSizeTokens: number, cachedBlocks: number): PrefixMatchInfo {
  return new MatchInfoRecord(matchBlocks, totalBlocks, blockSizeTokens, cachedBlocks);
}
