import { Packr } from 'msgpackr';
import type { EngineBlockHash, KvEvent, KvEventBatch } from './types.js';

const packr = new Packr({ useRecords: false, variableMapSize: true });

/**
 * Options of {@link encodeVllmEventBatch}.
 * @public
 * @category KV events
 */
export interface KvEncodeOptions {
  /** `map` (vLLM ≥ 0.24: each event a `{type, …}` map) or `array` (legacy positional). */
  readonly encoding: 'map' | 'array';
  /** Encode the batch itself as a map (seen in one vLLM revision); default false (array). */
  readonly mapBatch?: boolean;
}

/**
 * Hashes are always msgpack integers, as msgspec writes Python ints: values that fit in 32 bits
 * as numbers, the rest as bigints (64-bit integer formats), because msgpackr writes a number
 * beyond 32 bits as a float64, which a Go or msgspec decoder refuses for a uint64 field.
 */
function wireHash(h: EngineBlockHash): number | bigint {
  if (typeof h === 'bigint') return h >= -0x80000000n && h <= 0xffffffffn ? Number(h) : h;
  return h >= -0x80000000 && h <= 0xffffffff ? h : BigInt(h);
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

// Copied: what msgpackr returns may be a view of its reusable output buffer.
const KEY_TS = Uint8Array.from(packr.pack('ts'));
const KEY_EVENTS = Uint8Array.from(packr.pack('events'));
const KEY_RANK = Uint8Array.from(packr.pack('data_parallel_rank'));

/** A msgpack float64 (`0xcb` and 8 bytes big-endian). */
function float64(value: number): Uint8Array {
  const out = new Uint8Array(9);
  out[0] = 0xcb;
  new DataView(out.buffer).setFloat64(1, value, false);
  return out;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Encodes a batch the way vLLM publishes it: `[ts, [events…], rank]` (rank omitted when
 * undefined, as vLLM ≈0.9 did), events either as legacy positional arrays or as maps. `ts` is
 * always a float64 and hashes are always integers (64-bit formats above 32 bits), as msgspec
 * writes them; media are written upper-case (`GPU`), as vLLM does. This is the one KV-event
 * encoder of the project (the simulator's model servers publish with it). Meant for tests,
 * simulators and users who bridge their own transport; the bytes decode with
 * {@link decodeKvEventBatch}.
 * @public
 * @category KV events
 */
export function encodeVllmEventBatch(batch: KvEventBatch, options: KvEncodeOptions): Uint8Array {
  const toWire: (e: KvEvent) => unknown = options.encoding === 'map' ? eventMap : eventArray;
  const events = packr.pack(batch.events.map(toWire));
  const rank = batch.dataParallelRank === undefined ? undefined : packr.pack(batch.dataParallelRank);
  // The batch header is written by hand so that ts is always a float64 (msgspec writes Python
  // floats that way; msgpackr would shorten a whole-second value to an integer).
  const parts: Uint8Array[] = [];
  if (options.mapBatch === true) {
    parts.push(Uint8Array.of(rank === undefined ? 0x82 : 0x83), KEY_TS, float64(batch.ts), KEY_EVENTS, events);
    if (rank !== undefined) parts.push(KEY_RANK, rank);
  } else {
    parts.push(Uint8Array.of(rank === undefined ? 0x92 : 0x93), float64(batch.ts), events);
    if (rank !== undefined) parts.push(rank);
  }
  return concat(parts);
}
