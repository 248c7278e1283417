import type { BlockKeys } from '../api/types.js';

/**
 * Blocks of one request shared with the other replicas at most (the head of each prompt first).
 * 512 blocks of 64 tokens cover 32k tokens of prompt, in about 9 KB of JSON.
 * @public
 * @category Plugins
 */
export const MAX_SHARED_BLOCKS = 512;

/** The wire form of one routing decision: endpoint id, block size, key chains. */
interface HistoryRecord {
  readonly e: string;
  readonly b: number;
  readonly c: readonly (readonly number[])[];
}

/**
 * One routing decision as a shared-state record: `endpointId` now holds the blocks of `keys`
 * (head blocks first, at most `maxBlocks` in all).
 * @internal
 */
export function encodeHistory(endpointId: string, keys: BlockKeys, maxBlocks = MAX_SHARED_BLOCKS): HistoryRecord {
  const chains: number[][] = [];
  let left = maxBlocks;
  for (const chain of keys.chains) {
    if (left <= 0) break;
    const n = Math.min(chain.length, left);
    const out = new Array<number>(n);
    for (let i = 0; i < n; i++) out[i] = chain[i] as number;
    chains.push(out);
    left -= n;
  }
  return { e: endpointId, b: keys.blockSizeTokens, c: chains };
}

const isKey = (k: unknown): k is number => typeof k === 'number' && Number.isSafeInteger(k) && k >= 0;

/**
 * Decodes a record another replica published; throws a `TypeError` on anything malformed (the
 * store is input: shared state counts such records and drops them).
 * @internal
 */
export function decodeHistory(data: unknown): { readonly endpointId: string; readonly keys: BlockKeys } {
  const r = data as Partial<HistoryRecord> | null;
  if (typeof r?.e !== 'string' || r.e === '') throw new TypeError('history record: "e" must be an endpoint id');
  if (typeof r.b !== 'number' || !Number.isInteger(r.b) || r.b <= 0) throw new TypeError('history record: "b" must be a positive block size');
  if (!Array.isArray(r.c)) throw new TypeError('history record: "c" must be a list of key chains');
  let total = 0;
  for (const chain of r.c as unknown[]) {
    if (!Array.isArray(chain) || !chain.every(isKey)) throw new TypeError('history record: a chain must be a list of block keys');
    total += chain.length;
  }
  if (total > MAX_SHARED_BLOCKS * 4) throw new TypeError('history record: too many blocks');
  return { endpointId: r.e, keys: { chains: r.c, blockSizeTokens: r.b, totalBlocks: total } };
}
