import { PrefixHasher, type BlockKeys, type ChainOptions, type KeyChain } from '@switchyard/prefix-index';
import { isSharedPrompt, sharedPromptOfBytes } from '../util/shared-prompts.js';

/** One memoised chain of a shared prompt and the inputs it was computed from. */
interface MemoChain {
  readonly prevKey: number;
  readonly blockSizeTokens: number;
  readonly maxBlocks: number;
  readonly includePartial: boolean;
  readonly chain: KeyChain;
}

/** A class instance rather than a literal, as the prefix index's own records (see its `records.ts`). */
class SharedBlockKeys implements BlockKeys {
  constructor(
    readonly chains: readonly KeyChain[],
    readonly blockSizeTokens: number,
    readonly totalBlocks: number,
  ) {}
}

function find(memo: readonly MemoChain[] | undefined, prevKey: number, o: ChainOptions): KeyChain | undefined {
  if (memo === undefined) return undefined;
  const maxBlocks = o.maxBlocks ?? 0;
  const includePartial = o.includePartial ?? true;
  for (const m of memo) {
    if (m.prevKey === prevKey && m.blockSizeTokens === o.blockSizeTokens && m.maxBlocks === maxBlocks && m.includePartial === includePartial) return m.chain;
  }
  return undefined;
}

function remember(memos: WeakMap<Uint32Array, MemoChain[]>, tokens: Uint32Array, prevKey: number, o: ChainOptions, chain: KeyChain): void {
  const entry = { prevKey, blockSizeTokens: o.blockSizeTokens, maxBlocks: o.maxBlocks ?? 0, includePartial: o.includePartial ?? true, chain };
  const list = memos.get(tokens);
  if (list === undefined) memos.set(tokens, [entry]);
  else list.push(entry);
}

/**
 * The gateways' block hasher in the simulator: a {@link PrefixHasher} that remembers the block
 * keys of the workload's shared prompts (`sharedPromptTokens`: built once, never mutated), so a
 * prompt that recurs is hashed once per (root, block size, cap) instead of once per request and
 * replica. The keys are the ones `PrefixHasher` computes (a miss calls it), so results are
 * unchanged; the gateway's hashing time is charged to virtual time from its measured cost
 * (`gatewayCpu`), not from this process's CPU. Other prompts are hashed as usual. The returned
 * chains are shared between requests: the prefix indexes only read them.
 * @internal
 */
export class SharedPromptHasher extends PrefixHasher {
  /** `chainTokens` results (the precise index's `Float64Array` chains). */
  readonly #tokenChains = new WeakMap<Uint32Array, MemoChain[]>();
  /** `hashPrompts` chains (the approximate index's plain arrays). */
  readonly #byteChains = new WeakMap<Uint32Array, MemoChain[]>();

  override chainTokens(tokens: ArrayLike<number>, prevKey: number, options: ChainOptions): Float64Array {
    if (!isSharedPrompt(tokens)) return super.chainTokens(tokens, prevKey, options);
    const hit = find(this.#tokenChains.get(tokens), prevKey, options);
    if (hit !== undefined) return hit as Float64Array;
    const chain = super.chainTokens(tokens, prevKey, options);
    remember(this.#tokenChains, tokens, prevKey, options, chain);
    return chain;
  }

  override hashPrompts(prompts: readonly Uint8Array[], model: string, cacheSalt: string | undefined, options: ChainOptions): BlockKeys {
    for (const p of prompts) if (sharedPromptOfBytes(p) === undefined) return super.hashPrompts(prompts, model, cacheSalt, options);
    const root = this.rootKey(model, cacheSalt);
    const chains: KeyChain[] = [];
    let totalBlocks = 0;
    for (const p of prompts) {
      const tokens = sharedPromptOfBytes(p) as Uint32Array;
      let chain = find(this.#byteChains.get(tokens), root, options);
      if (chain === undefined) {
        chain = super.hashPrompts([p], model, cacheSalt, options).chains[0] as KeyChain;
        remember(this.#byteChains, tokens, root, options, chain);
      }
      chains.push(chain);
      totalBlocks += chain.length;
    }
    return new SharedBlockKeys(chains, options.blockSizeTokens, totalBlocks);
  }
}
