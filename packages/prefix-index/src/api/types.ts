/**
 * One prompt's block keys, head block first: a plain array on the request path (a `Float64Array`
 * longer than 8 keys has an off-heap backing store whose allocation costs ~0.5 µs), a
 * `Float64Array` from `PrefixHasher.chainBytes`.
 * @public
 * @category API
 */
export type KeyChain = ArrayLike<number> & Iterable<number>;

/**
 * Block keys of one request: one chain of keys per prompt (a completions request may carry
 * several prompts; each gets its own chain). Keys are 53-bit non-negative integers stored as
 * float64, so indexes can keep them in typed arrays and numeric maps without bigint or string
 * allocation.
 * @public
 * @category API
 */
export interface BlockKeys {
  /** One chain per prompt, head block first. */
  readonly chains: readonly KeyChain[];
  /** Block size in tokens the keys were computed with. */
  readonly blockSizeTokens: number;
  /** Sum of the chains' lengths. */
  readonly totalBlocks: number;
}

/**
 * How much of one request one endpoint holds.
 * @public
 * @category API
 */
export interface EndpointMatch {
  /** Matched blocks, weighted by cache tier for the precise index (not truncated). */
  readonly weightedBlocks: number;
  /** Unweighted matched blocks. */
  readonly cachedBlocks: number;
}

/**
 * Result of {@link PrefixIndex.match}: matches of the endpoints that hold at least one block.
 * Endpoints that are absent matched nothing.
 * @public
 * @category API
 */
export interface PrefixMatchResult {
  /** Per endpoint id. */
  readonly byEndpoint: ReadonlyMap<string, EndpointMatch>;
  /** Blocks of the request (the denominator of hit ratios). */
  readonly totalBlocks: number;
}

/**
 * Counters and sizes of an index, for metrics and tests.
 * @public
 * @category API
 */
export interface PrefixIndexStats {
  /** Indexed (block, endpoint) entries. */
  readonly entries: number;
  /** Distinct block keys. */
  readonly blocks: number;
  /** Endpoints with at least one entry. */
  readonly endpoints: number;
  /** Entries dropped by LRU capacity (approximate index) since creation. */
  readonly evictions: number;
  /** Lookups made by `match` since creation. */
  readonly lookups: number;
}

/**
 * One interface for every prefix index: the approximate index that learns from routing decisions,
 * the precise index fed by engine KV events, and (later) a store shared by several gateway
 * replicas. Plugins only depend on this interface, which is the storage seam: pass any
 * implementation to the producers.
 * @public
 * @category API
 */
export interface PrefixIndex {
  /** `approximate`, `precise`, or an implementation's own kind. */
  readonly kind: string;
  /**
   * Matches a request's block keys. `endpointIds`, when given, restricts the result to those
   * endpoints (the candidates of the cycle).
   */
  match(keys: BlockKeys, endpointIds?: readonly string[]): PrefixMatchResult;
  /** Records that `endpointId` now holds `keys` (the approximate index learns this way). */
  add(endpointId: string, keys: BlockKeys): void;
  /** Forgets everything about an endpoint (it left the pool, or its cache state is unknown). */
  removeEndpoint(endpointId: string): void;
  /** Indexed (block, endpoint) entries. */
  readonly size: number;
  /** Counters and sizes. */
  stats(): PrefixIndexStats;
}
