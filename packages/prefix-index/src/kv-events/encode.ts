import { Packr } from 'msgpackr';
import type { EngineBlockHash, KvEvent, KvEventBatch } from './types.js';

const packr = new Packr({ useRecords: false, variableMapSize: true });

/**
 * Options of {@link encodeVllmEventBatch}.
 * @public
 */
export interface KvEncodeOptions {
  /** `map` (vLLM ≥ 0.24: each event a `{type, …}` map) or `array` (legacy positional). */
  readonly encoding: 'map' | 'array';
  /** Encode the batch itself as a map (seen in one vLLM revision); default false (array). */
  readonly mapBatch?: boolean;
}

/** Hashes that fit in 53 bits go out as plain integers, as msgspec would encode them. */
function wireHash(h: EngineBlockHash): number | bigint {
  return typeof h === 'bigint' && h >= 0n && h <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(h) : h;
}

const nil = <T>(v: T | undefined): T | null => (v === undefined ? null : v);

function eventArray(e: KvEvent): unknown[] {
  switch (e.type) {
    case 'BlockStored': {
      const out: unknown[] = [
        e.type,
        e.blockHashes.map(wireHash),
        e.parentBlockHash === undefined ? null : wireHash(e.parentBlockHash),
        e.tokenIds,
        e.blockSize,
        nil(e.loraId),
        e.medium.toUpperCase(),
        nil(e.loraName),
        nil(e.extraKeys),
        nil(e.groupIdx),
      ];
      if (e.kvCacheSpecKind !== undefined || e.slidingWindow !== undefined) out.push(nil(e.kvCacheSpecKind), nil(e.slidingWindow));
      return out;
    }
    case 'BlockRemoved':
      return [e.type, e.blockHashes.map(wireHash), e.medium.toUpperCase(), nil(e.groupIdx)];
    case 'AllBlocksCleared':
      return [e.type];
  }
}

function eventMap(e: KvEvent): Record<string, unknown> {
  switch (e.type) {
    case 'BlockStored': {
      // Fields without a default are always present (even nil); defaulted ones only when set.
      const out: Record<string, unknown> = {
        type: e.type,
        block_hashes: e.blockHashes.map(wireHash),
        parent_block_hash: e.parentBlockHash === undefined ? null : wireHash(e.parentBlockHash),
        token_ids: e.tokenIds,
        block_size: e.blockSize,
        lora_id: nil(e.loraId),
        medium: e.medium.toUpperCase(),
        lora_name: nil(e.loraName),
      };
      if (e.extraKeys !== undefined) out['extra_keys'] = e.extraKeys;
      if (e.groupIdx !== undefined) out['group_idx'] = e.groupIdx;
      if (e.kvCacheSpecKind !== undefined) out['kv_cache_spec_kind'] = e.kvCacheSpecKind;
      if (e.slidingWindow !== undefined) out['kv_cache_spec_sliding_window'] = e.slidingWindow;
      return out;
    }
    case 'BlockRemoved': {
      const out: Record<string, unknown> = { type: e.type, block_hashes: e.blockHashes.map(wireHash), medium: e.medium.toUpperCase() };
      if (e.groupIdx !== undefined) out['group_idx'] = e.groupIdx;
      return out;
    }
    case 'AllBlocksCleared':
      return { type: e.type };
  }
}

/**
 * Encodes a batch the way vLLM publishes it: `[ts, [events…], rank]` (rank omitted when
 * undefined, as vLLM ≈0.9 did), events either as legacy positional arrays or as maps. Media are
 * written upper-case (`GPU`), as vLLM does. Meant for tests, simulators and users who bridge
 * their own transport; the bytes decode with {@link decodeKvEventBatch}.
 * @public
 */
export function encodeVllmEventBatch(batch: KvEventBatch, options: KvEncodeOptions): Uint8Array {
  const toWire: (e: KvEvent) => unknown = options.encoding === 'map' ? eventMap : eventArray;
  const events = batch.events.map(toWire);
  if (options.mapBatch === true) {
    const out: Record<string, unknown> = { ts: batch.ts, events };
    if (batch.dataParallelRank !== undefined) out['data_parallel_rank'] = batch.dataParallelRank;
    return packr.pack(out);
  }
  const out: unknown[] = [batch.ts, events];
  if (batch.dataParallelRank !== undefined) out.push(batch.dataParallelRank);
  return packr.pack(out);
}
