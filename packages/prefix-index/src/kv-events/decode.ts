import { Unpackr, type Options } from 'msgpackr';
import { toEngineHash } from './hash-value.js';
import { DEFAULT_KV_DECODE_LIMITS, exceedsKvLimits, type KvDecodeLimits } from './limits.js';
import type {
  EngineBlockHash,
  KvDecodeError,
  KvDecodeErrorCause,
  KvDecodeResult,
  KvEvent,
  KvEventDialect,
} from './types.js';

// 'auto' (numbers when safe, bigints otherwise) exists at runtime but is missing from msgpackr's types.
const unpackr = new Unpackr({ useRecords: false, mapsAsObjects: true, int64AsType: 'auto' } as unknown as Options);

/**
 * Options of {@link decodeKvEventBatch}.
 * @public
 * @category KV events
 */
export interface KvDecodeOptions {
  /** Field layout of positional events (default `vllm`). Map events are self-describing. */
  readonly dialect?: KvEventDialect;
  /** Size, value-count and depth bounds checked before decoding (defaults: {@link DEFAULT_KV_DECODE_LIMITS}). */
  readonly limits?: KvDecodeLimits;
}

/** Thrown internally to reject one event; never escapes {@link decodeKvEventBatch}. */
class FieldError extends Error {
  constructor(
    readonly kind: KvDecodeErrorCause,
    message: string,
  ) {
    super(message);
  }
}

type Read = (position: number, name: string) => unknown;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);
}

const isNil = (v: unknown): v is null | undefined => v === null || v === undefined;

function intField(v: unknown, name: string, required: boolean): number | undefined {
  if (isNil(v)) {
    if (required) throw new FieldError('bad-field', `${name}: missing`);
    return undefined;
  }
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  throw new FieldError('bad-field', `${name}: expected an integer, got ${typeof v}`);
}

function stringField(v: unknown, name: string): string | undefined {
  if (isNil(v)) return undefined;
  if (typeof v === 'string') return v;
  throw new FieldError('bad-field', `${name}: expected a string, got ${typeof v}`);
}

function hashList(v: unknown, name: string): EngineBlockHash[] {
  if (!Array.isArray(v)) throw new FieldError('bad-field', `${name}: expected an array`);
  const out = new Array<EngineBlockHash>(v.length);
  for (let i = 0; i < v.length; i++) {
    const h = toEngineHash(v[i]);
    if (h === undefined) throw new FieldError('bad-field', `${name}[${i}]: expected an integer or bytes`);
    out[i] = h;
  }
  return out;
}

function tokenList(v: unknown, name: string): number[] {
  if (!Array.isArray(v)) throw new FieldError('bad-field', `${name}: expected an array`);
  for (let i = 0; i < v.length; i++) {
    const t: unknown = v[i];
    if (typeof t !== 'number' || !Number.isInteger(t) || t < 0 || t > 0xffffffff) {
      throw new FieldError('bad-field', `${name}[${i}]: expected a uint32 token id`);
    }
  }
  return v as number[];
}

function medium(v: unknown): string {
  return stringField(v, 'medium')?.toLowerCase() ?? 'gpu';
}

/** Positional index of each field, per dialect (index 0 is the type tag). */
const POSITIONS = {
  vllm: { block_hashes: 1, parent_block_hash: 2, token_ids: 3, block_size: 4, lora_id: 5, medium: 6, lora_name: 7, extra_keys: 8, group_idx: 9, kv_cache_spec_kind: 10, kv_cache_spec_sliding_window: 11, cache_salt: -1 },
  sglang: { block_hashes: 1, parent_block_hash: 2, token_ids: 3, block_size: 4, lora_id: 5, medium: 6, lora_name: -1, extra_keys: -1, group_idx: -1, kv_cache_spec_kind: -1, kv_cache_spec_sliding_window: -1, cache_salt: 7 },
} as const;

function decodeEvent(raw: unknown, dialect: KvEventDialect): KvEvent {
  let type: unknown;
  let read: Read;
  if (Array.isArray(raw)) {
    type = raw[0];
    read = (position) => (position < 0 ? undefined : raw[position]);
  } else if (isRecord(raw)) {
    type = raw['type'];
    read = (_position, name) => raw[name];
  } else {
    throw new FieldError('bad-event', 'event: expected an array or a map');
  }
  if (typeof type !== 'string') throw new FieldError('bad-event', 'event type: expected a string tag');
  const pos = POSITIONS[dialect];
  switch (type) {
    case 'BlockStored': {
      const extra = read(pos.extra_keys, 'extra_keys');
      if (!isNil(extra) && !Array.isArray(extra)) throw new FieldError('bad-field', 'extra_keys: expected an array');
      const parent = read(pos.parent_block_hash, 'parent_block_hash');
      const parentHash = isNil(parent) ? undefined : toEngineHash(parent);
      if (!isNil(parent) && parentHash === undefined) throw new FieldError('bad-field', 'parent_block_hash: expected an integer or bytes');
      const blockSize = intField(read(pos.block_size, 'block_size'), 'block_size', true) ?? 0;
      if (blockSize <= 0) throw new FieldError('bad-field', `block_size: expected a positive integer, got ${blockSize}`);
      return {
        type,
        blockHashes: hashList(read(pos.block_hashes, 'block_hashes'), 'block_hashes'),
        parentBlockHash: parentHash,
        tokenIds: tokenList(read(pos.token_ids, 'token_ids'), 'token_ids'),
        blockSize,
        loraId: intField(read(pos.lora_id, 'lora_id'), 'lora_id', false),
        medium: medium(read(pos.medium, 'medium')),
        loraName: stringField(read(pos.lora_name, 'lora_name'), 'lora_name'),
        extraKeys: isNil(extra) ? undefined : (extra as unknown[]),
        groupIdx: intField(read(pos.group_idx, 'group_idx'), 'group_idx', false),
        kvCacheSpecKind: stringField(read(pos.kv_cache_spec_kind, 'kv_cache_spec_kind'), 'kv_cache_spec_kind'),
        slidingWindow: intField(read(pos.kv_cache_spec_sliding_window, 'kv_cache_spec_sliding_window'), 'kv_cache_spec_sliding_window', false),
        cacheSalt: stringField(read(pos.cache_salt, 'cache_salt'), 'cache_salt'),
      };
    }
    case 'BlockRemoved':
      return {
        type,
        blockHashes: hashList(read(1, 'block_hashes'), 'block_hashes'),
        medium: medium(read(2, 'medium')),
        groupIdx: intField(read(dialect === 'vllm' ? 3 : -1, 'group_idx'), 'group_idx', false),
      };
    case 'AllBlocksCleared':
      return { type };
    default:
      throw new FieldError('unknown-event-type', `event type "${type.slice(0, 64)}" is unknown`);
  }
}

/**
 * Decodes one msgpack KV-event payload (vLLM legacy positional events, vLLM map events, SGLang
 * events) into a {@link KvEventBatch}. The batch may be `[ts, events]`, `[ts, events, rank]` or a
 * map. Unknown fields and extra trailing elements are ignored, missing optional fields read as
 * absent. Never throws: malformed input yields errors, and an event with a problem is skipped
 * while the others are kept. Every length the payload claims is checked against its size and the
 * {@link KvDecodeLimits} before anything is allocated, so a hostile message costs what it weighs.
 * @public
 * @category KV events
 */
export function decodeKvEventBatch(payload: Uint8Array, options: KvDecodeOptions = {}): KvDecodeResult {
  const dialect = options.dialect ?? 'vllm';
  const limits = options.limits === undefined ? DEFAULT_KV_DECODE_LIMITS : { ...DEFAULT_KV_DECODE_LIMITS, ...options.limits };
  const exceeded = exceedsKvLimits(payload, limits);
  if (exceeded !== undefined) return { batch: undefined, errors: [exceeded] };
  let raw: unknown;
  try {
    raw = unpackr.unpack(payload);
  } catch (err) {
    return { batch: undefined, errors: [{ cause: 'malformed-msgpack', message: `payload: ${err instanceof Error ? err.message : 'undecodable'}` }] };
  }
  let ts: unknown;
  let rawEvents: unknown;
  let rank: unknown;
  if (Array.isArray(raw)) {
    [ts, rawEvents, rank] = raw as unknown[];
  } else if (isRecord(raw)) {
    ts = raw['ts'];
    rawEvents = raw['events'];
    rank = raw['data_parallel_rank'];
  } else {
    return { batch: undefined, errors: [{ cause: 'bad-batch', message: 'batch: expected an array or a map' }] };
  }
  if (!Array.isArray(rawEvents)) return { batch: undefined, errors: [{ cause: 'bad-batch', message: 'batch.events: expected an array' }] };
  const errors: KvDecodeError[] = [];
  const events: KvEvent[] = [];
  for (let i = 0; i < rawEvents.length; i++) {
    try {
      events.push(decodeEvent(rawEvents[i], dialect));
    } catch (err) {
      if (err instanceof FieldError) errors.push({ cause: err.kind, message: `events[${i}].${err.message}` });
      else errors.push({ cause: 'bad-event', message: `events[${i}]: ${String(err)}` });
    }
  }
  const batchTs = typeof ts === 'number' ? ts : 0;
  if (typeof ts !== 'number') errors.push({ cause: 'bad-field', message: 'batch.ts: expected a number' });
  return {
    batch: { ts: batchTs, events, dataParallelRank: typeof rank === 'number' ? rank : undefined },
    errors,
  };
}
