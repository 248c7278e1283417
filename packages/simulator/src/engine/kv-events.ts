/*
 * The engine model's own KV events: what the simulated block manager emits, with engine hashes as
 * plain numbers and vLLM's upper-case media. Named `Sim…` because `@switchyard/prefix-index` exports
 * the decoded wire events (`KvEvent`, 64-bit hashes) under the plain names; `toPrefixIndexBatch`
 * converts one into the other.
 */
/**
 * Where a block lives (vLLM's `medium`).
 * @public
 * @category Engine
 */
export type KvMedium = 'GPU' | 'CPU';

/**
 * Blocks became full and were hashed (vLLM emits this at scheduling time, so blocks of a prefill
 * still in flight are already hittable).
 * @public
 * @category Engine
 */
export interface SimBlockStoredEvent {
  /** Discriminant. */
  readonly type: 'BlockStored';
  /** Hashes of the consecutive blocks stored. */
  readonly blockHashes: readonly number[];
  /** Hash of the block before the first one, or null when the first is the sequence's first block. */
  readonly parentBlockHash: number | null;
  /** Token ids of all stored blocks (`blockHashes.length × blockSize`). */
  readonly tokenIds: readonly number[];
  /** Tokens per block. */
  readonly blockSize: number;
  /** LoRA adapter of the request, or null. */
  readonly loraName: string | null;
  /** Tier. */
  readonly medium: KvMedium;
}

/**
 * Cached blocks were evicted (reused for other data). Not emitted when a request merely finishes.
 * @public
 * @category Engine
 */
export interface SimBlockRemovedEvent {
  /** Discriminant. */
  readonly type: 'BlockRemoved';
  /** Hashes of the evicted blocks. */
  readonly blockHashes: readonly number[];
  /** Tier. */
  readonly medium: KvMedium;
}

/**
 * The prefix cache was reset.
 * @public
 * @category Engine
 */
export interface SimAllBlocksClearedEvent {
  /** Discriminant. */
  readonly type: 'AllBlocksCleared';
}

/**
 * One KV-cache event.
 * @public
 * @category Engine
 */
export type SimKvEvent = SimBlockStoredEvent | SimBlockRemovedEvent | SimAllBlocksClearedEvent;

/**
 * The events of one engine step, as vLLM publishes them.
 * @public
 * @category Engine
 */
export interface SimKvEventBatch {
  /** Timestamp in seconds. */
  readonly ts: number;
  /** Events in the order they happened. */
  readonly events: readonly SimKvEvent[];
  /** Data-parallel rank stamped on the batch (null omits it, like vLLM ≤0.9). */
  readonly dataParallelRank: number | null;
}
