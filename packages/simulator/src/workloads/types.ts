/**
 * A run of synthetic prompt tokens: tokens `[offset, offset + length)` of the stream `seed`
 * (see `syntheticToken`). Spans with the same seed and offset are the same tokens, which is how
 * workloads express shared prefixes without storing them.
 * @public
 * @category Workloads
 */
export interface SyntheticSpan {
  /** Stream seed. */
  readonly seed: number;
  /** First token index in the stream (default 0). */
  readonly offset?: number;
  /** Number of tokens. */
  readonly length: number;
}

/**
 * One part of a prompt: a synthetic span or literal token ids.
 * @public
 * @category Workloads
 */
export type PromptPart = SyntheticSpan | Uint32Array;

/**
 * One request of a workload, as plain data.
 * @public
 * @category Workloads
 */
export interface WorkloadItem {
  /** Unique id within the workload. */
  readonly id: string;
  /** Arrival time in ms from the start of the run (for dependent items: the open-loop estimate). */
  readonly arrivalMs: number;
  /** Prompt, as parts concatenated in order. */
  readonly prompt: readonly PromptPart[];
  /** Total prompt tokens (sum of part lengths). */
  readonly promptLength: number;
  /** `max_tokens` of the request (what the gateway sees). */
  readonly maxOutputTokens: number;
  /**
   * Output tokens the request really generates before it stops (≤ `maxOutputTokens`; default
   * `maxOutputTokens`, as with `ignore_eos`). Real traffic mostly stops early.
   */
  readonly outputLength?: number;
  /**
   * Seed of the output token stream the engine generates, so the next turn of a conversation
   * can contain this turn's answer as `{ seed: outputSeed, length: outputLength ?? maxOutputTokens }`.
   */
  readonly outputSeed: number;
  /** Tenant / fairness id. */
  readonly tenant: string;
  /** Priority (higher is more important; negative = sheddable), as an objective would set it. */
  readonly priority: number;
  /** LoRA adapter to use, or undefined for the base model. */
  readonly adapter: string | undefined;
  /** Session (conversation) id, when the item belongs to one. */
  readonly session: string | undefined;
  /**
   * Closed-loop dependency: the id of the item whose completion this one waits for. A runner that
   * honours it sends this item `delayMs` after that completion; one that does not uses `arrivalMs`.
   */
  readonly after: string | undefined;
  /** Think time after `after` completes, ms. */
  readonly delayMs: number;
}

/**
 * A generated (or replayed) workload.
 * @public
 * @category Workloads
 */
export interface Workload {
  /** Name, e.g. `shared-prefix`. */
  readonly name: string;
  /** One-line description with the main parameters. */
  readonly description: string;
  /** Parameters it was generated with (for the report). */
  readonly params: Readonly<Record<string, unknown>>;
  /** Items in arrival order (dependent items by their open-loop estimate). */
  readonly items: readonly WorkloadItem[];
}
