export type {
  EngineBlockHash,
  BlockStoredEvent,
  BlockRemovedEvent,
  AllBlocksClearedEvent,
  KvEvent,
  KvEventBatch,
  KvEventDialect,
  KvDecodeErrorCause,
  KvDecodeError,
  KvDecodeResult,
} from './types.js';
export { decodeKvEventBatch } from './decode.js';
export type { KvDecodeOptions } from './decode.js';
export { encodeVllmEventBatch } from './encode.js';
export type { KvEncodeOptions } from './encode.js';
export { foldHashBytes, toEngineHash, engineHashHandle } from './hash-value.js';
export { DEFAULT_KV_DECODE_LIMITS } from './limits.js';
export type { KvDecodeLimits } from './limits.js';
