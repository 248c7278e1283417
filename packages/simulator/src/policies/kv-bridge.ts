import type { KvEventBatch as PrefixKvEventBatch, KvEvent as PrefixKvEvent } from '@switchyard/prefix-index';
import type { SimKvEventBatch } from '../engine/kv-events.js';

/**
 * Batches already converted: every gateway replica's precise index receives the same engine batch
 * object, so it is converted once (the converted form is never mutated by the index).
 */
const converted = new WeakMap<SimKvEventBatch, PrefixKvEventBatch>();

/**
 * Converts an engine batch to the decoded form `@switchyard/prefix-index` ingests (what its
 * decoder would produce from the wire bytes): tiers lower-cased, null parents as undefined.
 * Converting the same batch object again returns the same result object.
 * @public
 * @category Policies
 */
export function toPrefixIndexBatch(batch: SimKvEventBatch): PrefixKvEventBatch {
  let out = converted.get(batch);
  if (out === undefined) {
    out = convert(batch);
    converted.set(batch, out);
  }
  return out;
}

function convert(batch: SimKvEventBatch): PrefixKvEventBatch {
  const events: PrefixKvEvent[] = batch.events.map((e): PrefixKvEvent => {
    switch (e.type) {
      case 'BlockStored':
        return {
          type: 'BlockStored',
          blockHashes: e.blockHashes,
          parentBlockHash: e.parentBlockHash ?? undefined,
          tokenIds: e.tokenIds,
          blockSize: e.blockSize,
          medium: e.medium.toLowerCase(),
          ...(e.loraName === null ? {} : { loraName: e.loraName }),
        };
      case 'BlockRemoved':
        return { type: 'BlockRemoved', blockHashes: e.blockHashes, medium: e.medium.toLowerCase() };
      case 'AllBlocksCleared':
        return { type: 'AllBlocksCleared' };
    }
  });
  return { ts: batch.ts, events, ...(batch.dataParallelRank === null ? {} : { dataParallelRank: batch.dataParallelRank }) };
}
