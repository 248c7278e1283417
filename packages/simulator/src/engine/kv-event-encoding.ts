import { Packr } from 'msgpackr';
import type { SimKvEvent, SimKvEventBatch } from './kv-events.js';

/**
 * How events are encoded inside a batch: `map` (vLLM ≥ ~0.23: each event a `{type: ...}` map)
 * or `array` (legacy: the tag then every field in declaration order).
 * @public
 */
export type KvEventEncoding = 'map' | 'array';

const packr = new Packr({ useRecords: false, variableMapSize: true });

/** Hashes above 32 bits go out as msgpack 64-bit integers (BigInt), never as floats. */
const wireHash = (h: number): number | bigint => (h > 0xffffffff ? BigInt(h) : h);
const wireHashes = (hs: readonly number[]): (number | bigint)[] => hs.map(wireHash);

function eventAsArray(e: SimKvEvent): unknown[] {
  switch (e.type) {
    case 'BlockStored':
      // block_hashes, parent_block_hash, token_ids, block_size, lora_id, medium, lora_name, extra_keys, group_idx
      return ['BlockStored', wireHashes(e.blockHashes), e.parentBlockHash === null ? null : wireHash(e.parentBlockHash), e.tokenIds, e.blockSize, null, e.medium, e.loraName, null, 0];
    case 'BlockRemoved':
      return ['BlockRemoved', wireHashes(e.blockHashes), e.medium, 0];
    case 'AllBlocksCleared':
      return ['AllBlocksCleared'];
  }
}

function eventAsMap(e: SimKvEvent): Record<string, unknown> {
  switch (e.type) {
    case 'BlockStored':
      // Fields without defaults are always present (even when nil); defaulted ones only when set.
      return {
        type: 'BlockStored',
        block_hashes: wireHashes(e.blockHashes),
        parent_block_hash: e.parentBlockHash === null ? null : wireHash(e.parentBlockHash),
        token_ids: e.tokenIds,
        block_size: e.blockSize,
        lora_id: null,
        medium: e.medium,
        lora_name: e.loraName,
        group_idx: 0,
      };
    case 'BlockRemoved':
      return { type: 'BlockRemoved', block_hashes: wireHashes(e.blockHashes), medium: e.medium, group_idx: 0 };
    case 'AllBlocksCleared':
      return { type: 'AllBlocksCleared' };
  }
}

/**
 * Encodes a batch exactly as vLLM's ZMQ publisher does: msgpack `[ts (float64), [events], dp_rank]`
 * (`[ts, [events]]` when the rank is null), block hashes as unsigned 64-bit integers.
 * @public
 */
export function encodeKvEventBatch(batch: SimKvEventBatch, encoding: KvEventEncoding = 'map'): Uint8Array {
  const events = packr.pack(encoding === 'map' ? batch.events.map(eventAsMap) : batch.events.map(eventAsArray));
  const rank = batch.dataParallelRank === null ? undefined : packr.pack(batch.dataParallelRank);
  // The outer array is written by hand so that ts is always a float64 (msgspec writes Python
  // floats that way; msgpackr would shorten a whole-second value to an integer).
  const out = new Uint8Array(1 + 9 + events.length + (rank?.length ?? 0));
  out[0] = rank === undefined ? 0x92 : 0x93;
  out[1] = 0xcb;
  new DataView(out.buffer).setFloat64(2, batch.ts, false);
  out.set(events, 10);
  if (rank !== undefined) out.set(rank, 10 + events.length);
  return out;
}
