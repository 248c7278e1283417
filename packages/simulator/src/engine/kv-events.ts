/**
 * Where a block lives (vLLM's `medium`).
 * @public
 */
export type KvMedium = 'GPU' | 'CPU';

/**
 * Blocks became full and were hashed (vLLM emits this at scheduling time, so blocks of a prefill
 * still in flight are already hittable).
 * @public
 */
export interface BlockStoredEvent {
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
 */
export interface BlockRemovedEvent {
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
 */
export interface AllBlocksClearedEvent {
  /** Discriminant. */
  readonly type: 'AllBlocksCleared';
}

/**
 * One KV-cache event.
 * @public
 */
export type KvEvent = BlockStoredEvent | BlockRemovedEvent | AllBlocksClearedEvent;

/**
 * The events of one engine step, as vLLM publishes them.
 * @public
 */
export interface KvEventBatch {
  /** Timestamp in seconds. */
  readonly ts: number;
  /** Events in the order they happened. */
  readonly events: readonly KvEvent[];
  /** Data-parallel rank stamped on the batch (null omits it, like vLLM ≤0.9). */
  readonly dataParallelRank: number | null;
}
