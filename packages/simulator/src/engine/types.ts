/**
 * Parameters of the step-time cost model (see {@link stepTimeMs}):
 * `T = t0 + tSeq·B + max(tWeights, a·N) + b·Σ(2·cᵢ·nᵢ + nᵢ²) + kKv·ΣCdec + tCpu·blocksLoaded`, times a
 * seeded jitter factor. N = tokens scheduled in the step, B = sequences in it, nᵢ/cᵢ = a prefill
 * chunk's new and already-computed tokens, Cdec = a decoding sequence's context length.
 * @public
 * @category Engine
 */
export interface CostModelParams {
  /** t0: fixed per-step overhead (scheduling, sampling, launch), ms. */
  readonly stepOverheadMs: number;
  /** tWeights: time to stream the weights once (the decode floor), ms. */
  readonly weightReadMs: number;
  /** a: linear (GEMM) cost per scheduled token, ms. */
  readonly perTokenMs: number;
  /** b: attention cost per (query, key) token pair of prefill, in nanoseconds. */
  readonly attentionPairNs: number;
  /** tSeq: per-sequence cost, ms. */
  readonly perSeqMs: number;
  /** kKv: decode attention cost per context token of each decoding sequence, in nanoseconds. */
  readonly decodeContextNs: number;
  /** tCpu: time to load one block from the CPU tier over PCIe, ms. */
  readonly cpuLoadPerBlockMs: number;
  /** Relative standard deviation of the multiplicative step-time jitter (0 disables it). */
  readonly jitter: number;
}

/**
 * A model-on-hardware profile: cost-model parameters plus the vLLM scheduler and cache sizes.
 * @public
 * @category Engine
 */
export interface EngineProfile {
  /** Profile name, e.g. `8b-h100`. */
  readonly name: string;
  /** What it models and where the numbers come from. */
  readonly description: string;
  /** Model name served by default. */
  readonly model: string;
  /** Step-time parameters. */
  readonly cost: CostModelParams;
  /** KV-cache blocks on the GPU (vLLM `num_gpu_blocks`). */
  readonly numGpuBlocks: number;
  /** Tokens per block (vLLM default 16). */
  readonly blockSize: number;
  /** vLLM `max_num_seqs`. */
  readonly maxNumSeqs: number;
  /** vLLM `max_num_batched_tokens` (token budget per step). */
  readonly maxNumBatchedTokens: number;
  /** vLLM `max_model_len`. */
  readonly maxModelLen: number;
  /**
   * Time a request spends between the gateway forwarding it and the engine queueing it (HTTP,
   * the API server's tokenisation and input processing): `fixedMs + perPromptTokenUs·P / 1000`.
   * Default 1 ms flat.
   */
  readonly requestPath?: { readonly fixedMs: number; readonly perPromptTokenUs: number } | undefined;
}

/**
 * Fully resolved engine configuration.
 * @public
 * @category Engine
 */
export interface EngineConfig {
  /** Base model name (the OpenAI `model` of base requests and the `model_name` metric label). */
  readonly modelName: string;
  /** Tokens per KV block. */
  readonly blockSize: number;
  /** GPU KV blocks. */
  readonly numGpuBlocks: number;
  /** CPU-tier blocks (0 disables the tier). */
  readonly numCpuBlocks: number;
  /** Max sequences running at once. */
  readonly maxNumSeqs: number;
  /** Token budget per step (chunked prefill splits longer prompts). */
  readonly maxNumBatchedTokens: number;
  /** Longest prompt + output the engine accepts. */
  readonly maxModelLen: number;
  /** Whether freed blocks keep their hash and can be reused as prefix hits. */
  readonly enablePrefixCaching: boolean;
  /** LoRA slots (vLLM `max_loras`). */
  readonly maxLoras: number;
  /** Time to load an adapter into a slot, ms. */
  readonly loraLoadMs: number;
  /** LoRA adapters served (listed by `/v1/models`; others are rejected by the server). */
  readonly loraAdapters: readonly string[];
  /** Step-time parameters. */
  readonly cost: CostModelParams;
  /** Seed of the step-time jitter. */
  readonly seed: number;
  /** Name of the profile the config came from. */
  readonly profileName: string;
}

/**
 * Why a request ended: `length` (max output tokens reached) or `abort`.
 * @public
 * @category Engine
 */
export type FinishReason = 'length' | 'abort';

/**
 * A request submitted to the engine.
 * @public
 * @category Engine
 */
export interface EngineRequestSpec {
  /** Unique id (reused ids are rejected while the first is live). */
  readonly id: string;
  /** Prompt token ids. */
  readonly promptTokens: ArrayLike<number>;
  /** Output tokens to generate (the engine always generates exactly this many, like `ignore_eos`). */
  readonly maxOutputTokens: number;
  /** LoRA adapter name, or undefined for the base model. */
  readonly adapter?: string | undefined;
  /** vLLM `cache_salt`: requests with different salts never share cached blocks. */
  readonly cacheSalt?: string | undefined;
  /**
   * Token ids to "generate", so a workload can predict what the next turn's prompt contains.
   * Missing ids come from a synthetic stream seeded by `outputSeed`.
   */
  readonly outputTokens?: ArrayLike<number> | undefined;
  /** Seed of the synthetic output stream (default: derived from the id). */
  readonly outputSeed?: number | undefined;
}

/**
 * Per-request callbacks (cheaper than emitter events on the hot path).
 * @public
 * @category Engine
 */
export interface EngineRequestCallbacks {
  /** A token was generated (`index` 0 is the first token). */
  readonly onToken?: ((tokenId: number, index: number) => void) | undefined;
  /** The request finished or was aborted. */
  readonly onFinish?: ((result: EngineRequestResult) => void) | undefined;
}

/**
 * What the engine reports when a request ends. Times are clock milliseconds.
 * @public
 * @category Engine
 */
export interface EngineRequestResult {
  /** Request id. */
  readonly id: string;
  /** LoRA adapter, if any. */
  readonly adapter: string | undefined;
  /** Prompt length in tokens. */
  readonly promptTokens: number;
  /** Prompt tokens served from the prefix cache when the request was first scheduled. */
  readonly cachedTokens: number;
  /** Tokens generated. */
  readonly outputTokens: number;
  /** How it ended. */
  readonly finishReason: FinishReason;
  /** Submit time. */
  readonly arrivedAt: number;
  /** First time it was scheduled (undefined if it never was). */
  readonly scheduledAt: number | undefined;
  /** Time of the first output token (undefined if none). */
  readonly firstTokenAt: number | undefined;
  /** End time. */
  readonly finishedAt: number;
  /** How many times it was preempted (and recomputed). */
  readonly preemptions: number;
}
