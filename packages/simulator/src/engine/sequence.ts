import { chainRoot, hashBlock } from '../util/block-hash.js';
import { promptBlockHashes } from '../util/shared-prompts.js';
import { hashString32 } from '../util/prng.js';
import { syntheticToken } from '../tokens/synthetic.js';
import type { EngineRequestCallbacks, EngineRequestSpec } from './types.js';

/**
 * Lifecycle state of a request inside the engine.
 * @public
 * @category Engine
 */
export type SequenceStatus = 'waiting' | 'running' | 'finished' | 'aborted';

/**
 * Read-only view of a live request (for tests, invariant checks and debugging).
 * @public
 * @category Engine
 */
export interface EngineRequestView {
  /** Request id. */
  readonly id: string;
  /** Current state. */
  readonly status: SequenceStatus;
  /** Prompt length. */
  readonly promptLength: number;
  /** Tokens generated so far. */
  readonly numOutput: number;
  /** Tokens whose KV is computed (or was reused from the cache). */
  readonly numComputed: number;
  /** GPU block ids held, in order. */
  readonly blockTable: readonly number[];
  /** Times preempted. */
  readonly preemptions: number;
  /** Prompt tokens reused from the prefix cache at first scheduling (0 before). */
  readonly cachedTokens: number;
}

/**
 * Engine-internal state of one request. Prompt block hashes are computed once at submit; blocks
 * holding output tokens are hashed when they fill, from tokens regenerated on demand (the
 * synthetic output stream needs no storage).
 * @internal
 */
export class Sequence implements EngineRequestView {
  readonly id: string;
  readonly prompt: ArrayLike<number>;
  readonly promptLength: number;
  readonly maxOutput: number;
  readonly adapter: string | undefined;
  readonly root: number;
  readonly callbacks: EngineRequestCallbacks | undefined;
  readonly arrivedAt: number;
  readonly #outputTokens: ArrayLike<number> | undefined;
  readonly #outputSeed: number;
  /** Chained hashes of full blocks known so far. */
  readonly hashes: number[] = [];
  status: SequenceStatus = 'waiting';
  numOutput = 0;
  numComputed = 0;
  blockTable: number[] = [];
  /** Blocks of `blockTable` already registered in the prefix cache (or reused from it). */
  numCommitted = 0;
  preemptions = 0;
  cachedTokens = 0;
  scheduledAt: number | undefined;
  firstTokenAt: number | undefined;
  lastTokenAt = 0;
  /** True while counted in the engine's waiting-adapter tally. */
  countedWaiting = false;

  constructor(spec: EngineRequestSpec, blockSize: number, arrivedAt: number, callbacks: EngineRequestCallbacks | undefined) {
    this.id = spec.id;
    this.prompt = spec.promptTokens;
    this.promptLength = spec.promptTokens.length;
    this.maxOutput = spec.maxOutputTokens;
    this.adapter = spec.adapter;
    this.root = chainRoot(spec.adapter, spec.cacheSalt);
    this.callbacks = callbacks;
    this.arrivedAt = arrivedAt;
    this.#outputTokens = spec.outputTokens;
    this.#outputSeed = spec.outputSeed ?? hashString32(spec.id);
    promptBlockHashes(this.prompt, this.promptLength, blockSize, this.root, this.hashes);
  }

  /** Prompt plus generated tokens. */
  get numTokens(): number {
    return this.promptLength + this.numOutput;
  }

  /** Token id at position `i` of prompt + output. */
  tokenAt(i: number): number {
    if (i < this.promptLength) return this.prompt[i] ?? 0;
    const k = i - this.promptLength;
    return this.#outputTokens?.[k] ?? syntheticToken(this.#outputSeed, k);
  }

  /** Copies tokens `[start, start + n)` into `out` (a plain loop over the prompt where possible). */
  copyTokens(start: number, n: number, out: number[]): void {
    const prompt = this.prompt;
    const inPrompt = Math.max(0, Math.min(n, this.promptLength - start));
    for (let i = 0; i < inPrompt; i++) out[i] = prompt[start + i] ?? 0;
    for (let i = inPrompt; i < n; i++) out[i] = this.tokenAt(start + i);
  }

  /** Makes sure `hashes` covers the first `blocks` full blocks (hashing output blocks as needed). */
  ensureHashes(blocks: number, blockSize: number, scratch: Uint32Array): void {
    for (let b = this.hashes.length; b < blocks; b++) {
      for (let k = 0; k < blockSize; k++) scratch[k] = this.tokenAt(b * blockSize + k);
      this.hashes.push(hashBlock(b === 0 ? this.root : (this.hashes[b - 1] ?? this.root), scratch, 0, blockSize));
    }
  }
}
