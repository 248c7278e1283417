import { encodeVllmEventBatch, type KvEncodeOptions, type KvEvent, type KvEventBatch } from '@switchyard/prefix-index';
import type { SimKvEvent, SimKvEventBatch } from './kv-events.js';

/**
 * How events are encoded inside a batch: `map` (vLLM ≥ ~0.23: each event a `{type: ...}` map)
 * or `array` (legacy: the tag then every field in declaration order).
 * @public
 * @category Engine
 */
export type KvEventEncoding = KvEncodeOptions['encoding'];

/**
 * The wire form of an engine event. The simulated engine has one KV-cache group, so `group_idx`
 * is always written as 0, as vLLM does for a model without hybrid groups.
 */
function wireEvent(e: SimKvEvent): KvEvent {
  switch (e.type) {
    case 'BlockStored':
      return {
        type: 'BlockStored',
        blockHashes: e.blockHashes,
        parentBlockHash: e.parentBlockHash ?? undefined,
        tokenIds: e.tokenIds,
        blockSize: e.blockSize,
        medium: e.medium,
        loraName: e.loraName ?? undefined,
        groupIdx: 0,
      };
    case 'BlockRemoved':
      return { type: 'BlockRemoved', blockHashes: e.blockHashes, medium: e.medium, groupIdx: 0 };
    case 'AllBlocksCleared':
      return e;
  }
}

/**
 * Encodes a batch exactly as vLLM's ZMQ publisher does, with `@switchyard/prefix-index`'s
 * `encodeVllmEventBatch` (the project's one KV-event encoder): msgpack `[ts (float64), [events],
 * dp_rank]` (`[ts, [events]]` when the rank is null), block hashes as integers.
 * @public
 * @category Engine
 */
export function encodeKvEventBatch(batch: SimKvEventBatch, encoding: KvEventEncoding = 'map'): Uint8Array {
  const wire: KvEventBatch = {
    ts: batch.ts,
    events: batch.events.map(wireEvent),
    ...(batch.dataParallelRank === null ? {} : { dataParallelRank: batch.dataParallelRank }),
  };
  return encodeVllmEventBatch(wire, { encoding });
}
