/**
 * An engine block hash as carried by KV events: an unsigned or signed 64-bit integer (numbers
 * when they fit in 53 bits, bigints otherwise). Byte-string hashes are folded to their last 8
 * bytes, big-endian, when decoded. Engine hashes are only handles: the precise index recomputes
 * its own keys from the token ids.
 * @public
 * @category KV events
 */
export type EngineBlockHash = number | bigint;

/**
 * Blocks became full and cached on the engine (vLLM `BlockStored`, SGLang per page).
 * @public
 * @category KV events
 */
export interface BlockStoredEvent {
  /** Discriminant. */
  readonly type: 'BlockStored';
  /** Engine hashes of the stored blocks, in chain order. */
  readonly blockHashes: readonly EngineBlockHash[];
  /** Engine hash of the block before the first one, or undefined at the start of a prompt. */
  readonly parentBlockHash: EngineBlockHash | undefined;
  /** Tokens of all the stored blocks, concatenated. */
  readonly tokenIds: readonly number[];
  /** Engine block size in tokens. */
  readonly blockSize: number;
  /** Deprecated LoRA id. */
  readonly loraId?: number | undefined;
  /** Storage tier, lower-cased (`gpu` when absent). */
  readonly medium: string;
  /** LoRA adapter name, when the blocks belong to an adapter. */
  readonly loraName?: string | undefined;
  /** Per-block extra hash inputs (LoRA name, multimodal ids, cache salt on the first block). */
  readonly extraKeys?: readonly unknown[] | undefined;
  /** KV-cache group (hybrid models). */
  readonly groupIdx?: number | undefined;
  /** Attention kind of the group (`full_attention`, `sliding_window`, ...). */
  readonly kvCacheSpecKind?: string | undefined;
  /** Sliding window size of the group. */
  readonly slidingWindow?: number | undefined;
  /** SGLang's cache salt field. */
  readonly cacheSalt?: string | undefined;
}

/**
 * Blocks were evicted from a tier.
 * @public
 * @category KV events
 */
export interface BlockRemovedEvent {
  /** Discriminant. */
  readonly type: 'BlockRemoved';
  /** Engine hashes of the removed blocks. */
  readonly blockHashes: readonly EngineBlockHash[];
  /** Storage tier, lower-cased (`gpu` when absent). */
  readonly medium: string;
  /** KV-cache group (hybrid models). */
  readonly groupIdx?: number | undefined;
}

/**
 * The engine's prefix cache was reset.
 * @public
 * @category KV events
 */
export interface AllBlocksClearedEvent {
  /** Discriminant. */
  readonly type: 'AllBlocksCleared';
}

/**
 * One KV-cache event.
 * @public
 * @category KV events
 */
export type KvEvent = BlockStoredEvent | BlockRemovedEvent | AllBlocksClearedEvent;

/**
 * One published batch: the events of one engine step.
 * @public
 * @category KV events
 */
export interface KvEventBatch {
  /** Engine wall-clock time of the batch, seconds. */
  readonly ts: number;
  /** Events in order. */
  readonly events: readonly KvEvent[];
  /** Data-parallel rank of the publisher, when stamped. */
  readonly dataParallelRank?: number | undefined;
}

/**
 * Which engine's field layout the positional (array) encoding follows.
 * @public
 * @category KV events
 */
export type KvEventDialect = 'vllm' | 'sglang';

/**
 * Why (part of) a payload was rejected. Each cause is a metric label value and is logged once.
 * @public
 * @category KV events
 */
export type KvDecodeErrorCause =
  | 'malformed-msgpack'
  | 'limit-exceeded'
  | 'bad-batch'
  | 'bad-event'
  | 'unknown-event-type'
  | 'bad-field';

/**
 * A problem found while decoding.
 * @public
 * @category KV events
 */
export interface KvDecodeError {
  /** Cause, a stable label. */
  readonly cause: KvDecodeErrorCause;
  /** Human-readable detail naming the field. */
  readonly message: string;
}

/**
 * Outcome of decoding one payload: the valid events (possibly none) and the problems. A payload
 * that is not a batch at all yields `batch: undefined`.
 * @public
 * @category KV events
 */
export interface KvDecodeResult {
  /** The batch with every valid event, or undefined when the payload was unusable. */
  readonly batch: KvEventBatch | undefined;
  /** Problems, in order; events with problems were skipped. */
  readonly errors: readonly KvDecodeError[];
}
