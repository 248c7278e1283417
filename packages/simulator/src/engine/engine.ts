import { EventEmitter } from 'eventemitter3';
import { SwitchyardError, systemClock, type Clock, type TimerHandle } from '@switchyard/core';
import { createRng, type Rng } from '../util/prng.js';
import { BlockManager } from './block-manager.js';
import { resolveEngineConfig, type EngineConfigInput } from './config.js';
import { stepTimeMs } from './cost-model.js';
import { EngineStats } from './engine-stats.js';
import type { SimKvEvent, SimKvEventBatch } from './kv-events.js';
import { LoraManager } from './lora-manager.js';
import { PublishedStats, type EngineSnapshot } from './published-stats.js';
import { BatchScheduler, StepPlan } from './scheduler-step.js';
import { Sequence, type EngineRequestView } from './sequence.js';
import type { EngineConfig, EngineRequestCallbacks, EngineRequestResult, EngineRequestSpec, FinishReason } from './types.js';

/**
 * Options of {@link EngineModel}.
 * @public
 * @category Engine
 */
export interface EngineOptions extends EngineConfigInput {
  /** Time source (default the system clock; the virtual fleet passes a ManualClock). */
  readonly clock?: Clock;
  /** Data-parallel rank stamped on KV event batches (default 0; null omits it). */
  readonly dataParallelRank?: number | null;
  /** Timestamp of KV event batches in seconds (default `clock.now() / 1000`). */
  readonly timestamp?: () => number;
}

/**
 * Events of an {@link EngineModel}.
 * @public
 * @category Engine
 */
export interface EngineEvents {
  /** KV events of one step (only produced while someone listens). */
  kvEvents: [batch: SimKvEventBatch];
  /** A request ended. */
  finished: [result: EngineRequestResult];
}

/**
 * A vLLM-like model server in one class, driven entirely by a `Clock` and doing no I/O:
 * continuous batching with chunked prefill, a paged KV cache with prefix caching, LRU eviction,
 * preemption by recompute and an optional CPU tier, LoRA slots, a step-time cost model, and the
 * metrics and KV events a real pod emits. The live HTTP server and the virtual-time fleet both
 * wrap it.
 * @example
 * ```ts
 * const clock = new ManualClock();
 * const engine = new EngineModel({ clock, profile: '8b-h100' });
 * engine.submit({ id: 'r1', promptTokens: tokenizeText('hello'), maxOutputTokens: 8 }, {
 *   onFinish: (r) => console.log(r.firstTokenAt),
 * });
 * clock.advance(1000);
 * ```
 * @public
 * @category Engine
 */
export class EngineModel extends EventEmitter<EngineEvents> {
  /** Resolved configuration. */
  readonly config: EngineConfig;
  /** Counters and histograms. */
  readonly stats = new EngineStats();
  /** The paged KV cache (read it for invariants; do not mutate). */
  readonly blocks: BlockManager;
  readonly #clock: Clock;
  readonly #rng: Rng;
  readonly #lora: LoraManager;
  readonly #sched: BatchScheduler;
  readonly #plan = new StepPlan();
  readonly #published: PublishedStats;
  readonly #live = new Map<string, Sequence>();
  readonly #rank: number | null;
  readonly #timestamp: () => number;
  #events: SimKvEvent[] = [];
  #stepTimer: TimerHandle | undefined;
  #kickTimer: TimerHandle | undefined;
  #closed = false;

  constructor(options: EngineOptions = {}) {
    super();
    this.config = resolveEngineConfig(options);
    this.#clock = options.clock ?? systemClock;
    this.#rng = createRng(this.config.seed);
    this.#rank = options.dataParallelRank === undefined ? 0 : options.dataParallelRank;
    this.#timestamp = options.timestamp ?? (() => this.#clock.now() / 1000);
    this.blocks = new BlockManager(this.config.numGpuBlocks, this.config.blockSize, this.config.numCpuBlocks);
    this.#lora = new LoraManager(this.#clock, this.config.maxLoras, this.config.loraLoadMs, () => { this.#kick(); });
    this.#sched = new BatchScheduler(this.config, this.blocks, this.#lora, this.stats, {
      token: (seq, tokenId, index) => seq.callbacks?.onToken?.(tokenId, index),
      finish: (seq, reason, now) => { this.#finish(seq, reason, now); },
    });
    this.#published = new PublishedStats(this.#sched, this.blocks, this.#lora, this.config.loraAdapters.length > 0);
  }

  /** The clock driving this engine. */
  get clock(): Clock {
    return this.#clock;
  }

  /**
   * Queues a request. Callbacks run synchronously inside engine steps.
   * @throws SwitchyardError `BAD_REQUEST` when the id is live, lengths are invalid, or the request
   * cannot fit in `max_model_len` or the KV cache
   */
  submit(spec: EngineRequestSpec, callbacks?: EngineRequestCallbacks): EngineRequestView {
    if (this.#closed) throw new SwitchyardError('REJECTED_SHUTTING_DOWN', 'engine is closed');
    const total = spec.promptTokens.length + spec.maxOutputTokens;
    if (this.#live.has(spec.id)) throw new SwitchyardError('BAD_REQUEST', `id: request "${spec.id}" is already running`);
    if (spec.promptTokens.length < 1) throw new SwitchyardError('BAD_REQUEST', 'prompt: must contain at least one token');
    if (!Number.isInteger(spec.maxOutputTokens) || spec.maxOutputTokens < 1) {
      throw new SwitchyardError('BAD_REQUEST', `max_tokens: expected a positive integer, got ${String(spec.maxOutputTokens)}`);
    }
    if (total > this.config.maxModelLen) {
      throw new SwitchyardError('BAD_REQUEST', `prompt: ${spec.promptTokens.length} prompt + ${spec.maxOutputTokens} output tokens exceed max_model_len ${this.config.maxModelLen}`);
    }
    if (Math.ceil(total / this.config.blockSize) > this.config.numGpuBlocks) {
      throw new SwitchyardError('BAD_REQUEST', `prompt: ${total} tokens need more KV blocks than the engine has (${this.config.numGpuBlocks})`);
    }
    const seq = new Sequence(spec, this.config.blockSize, this.#clock.now(), callbacks);
    this.#live.set(seq.id, seq);
    this.#sched.enqueue(seq, false);
    this.#kick();
    return seq;
  }

  /** Aborts a live request (its blocks are freed at once); false when unknown or already done. */
  abort(id: string): boolean {
    const seq = this.#live.get(id);
    if (seq === undefined) return false;
    this.#sched.abort(seq);
    this.#finish(seq, 'abort', this.#clock.now());
    // vLLM refreshes its gauges when the next step ends; with nothing left to run there is none.
    if (this.#live.size === 0 && this.#stepTimer === undefined) this.#published.publishLive(this.#clock.now());
    this.#kick();
    return true;
  }

  /**
   * Drops every cached prefix (vLLM `reset_prefix_cache`), emitting `AllBlocksCleared`. Like vLLM,
   * refuses (returns false, changing nothing) while requests hold blocks: their next blocks would
   * chain to hashes nobody holds any more.
   */
  resetPrefixCache(): boolean {
    if (this.blocks.numUsed > 0) return false;
    this.#recordEvents();
    this.blocks.reset();
    this.#flushEvents();
    return true;
  }

  /** Live requests (waiting or running). */
  liveRequests(): EngineRequestView[] {
    return [...this.#live.values()];
  }

  /**
   * Longest run of leading `hashes` shared with a request still waiting in this engine's queue
   * (its blocks are not cached yet but will be once it is scheduled). Hashes must be this
   * engine's chained block hashes (`hashBlocks` from `chainRoot(adapter, salt)`).
   */
  queuedPrefixBlocks(hashes: readonly number[]): number {
    let best = 0;
    const waiting = this.#sched.waiting;
    for (let i = 0; i < waiting.size; i++) {
      const seq = waiting.at(i);
      if (seq?.status !== 'waiting') continue;
      const theirs = seq.hashes;
      const n = Math.min(theirs.length, hashes.length);
      let k = 0;
      while (k < n && theirs[k] === hashes[k]) k++;
      if (k > best) best = k;
    }
    return best;
  }

  /** Adapters loaded in LoRA slots. */
  loadedAdapters(): string[] {
    return this.#lora.loadedAdapters();
  }

  /**
   * Current state as it really is right now (what an all-seeing observer, such as the oracle
   * policy, reads). A metrics scrape sees {@link EngineModel.metricsSnapshot} instead.
   */
  snapshot(): EngineSnapshot {
    return {
      at: this.#clock.now(),
      running: this.#sched.running.length,
      waiting: this.#sched.waitingCount,
      kvCacheUsage: this.blocks.numUsed / this.blocks.numBlocks,
      usedBlocks: this.blocks.numUsed,
      cachedBlocks: this.blocks.numCached,
      runningAdapters: this.#lora.runningAdapters(),
      waitingAdapters: this.#lora.waitingAdapters(),
    };
  }
  /**
   * State as the engine's `/metrics` page shows it: vLLM publishes its scheduler gauges at the end
   * of each step, so requests that arrived during the current step are not counted as waiting
   * yet, and running/usage are as of the last step's end.
   */
  metricsSnapshot(): EngineSnapshot {
    return this.#published.snapshot();
  }

  /** Whether the engine has nothing to do. */
  get idle(): boolean {
    return this.#live.size === 0;
  }

  /** Stops stepping; live requests stay where they are. */
  close(): void {
    this.#closed = true;
    if (this.#stepTimer !== undefined) this.#clock.clearTimeout(this.#stepTimer);
    if (this.#kickTimer !== undefined) this.#clock.clearTimeout(this.#kickTimer);
    this.#stepTimer = undefined;
    this.#kickTimer = undefined;
    this.#lora.close();
  }

  #kick(): void {
    if (this.#stepTimer !== undefined || this.#kickTimer !== undefined || this.#closed) return;
    // A zero-delay timer coalesces everything that arrives at the same instant into one step.
    this.#kickTimer = this.#clock.setTimeout(() => {
      this.#kickTimer = undefined;
      this.#step();
    }, 0);
  }

  #step(): void {
    if (this.#closed || this.#stepTimer !== undefined) return;
    const plan = this.#plan;
    plan.reset();
    this.#recordEvents();
    this.#sched.schedule(plan, this.#clock.now());
    this.#published.scheduled();
    this.#flushEvents();
    if (plan.length === 0) {
      this.#published.publish(this.#clock.now());
      return;
    }
    const ms = stepTimeMs(this.config.cost, plan.shape, this.#rng);
    this.stats.steps++;
    this.stats.busyMs += ms;
    this.#stepTimer = this.#clock.setTimeout(() => {
      this.#stepTimer = undefined;
      this.#sched.complete(plan, this.#clock.now());
      this.#published.publish(this.#clock.now());
      this.#step();
    }, ms);
  }

  #recordEvents(): void {
    this.blocks.recordEvents(this.listenerCount('kvEvents') > 0 ? this.#events : undefined);
  }

  #flushEvents(): void {
    if (this.#events.length === 0) return;
    const batch: SimKvEventBatch = { ts: this.#timestamp(), events: this.#events, dataParallelRank: this.#rank };
    this.#events = [];
    this.blocks.recordEvents(undefined);
    this.emit('kvEvents', batch);
  }

  #finish(seq: Sequence, reason: FinishReason, now: number): void {
    this.#live.delete(seq.id);
    if (reason === 'length') this.stats.finishedLength++;
    else this.stats.finishedAbort++;
    this.stats.e2e.observe((now - seq.arrivedAt) / 1000);
    const result: EngineRequestResult = {
      id: seq.id,
      adapter: seq.adapter,
      promptTokens: seq.promptLength,
      cachedTokens: seq.cachedTokens,
      outputTokens: seq.numOutput,
      finishReason: reason,
      arrivedAt: seq.arrivedAt,
      scheduledAt: seq.scheduledAt,
      firstTokenAt: seq.firstTokenAt,
      finishedAt: now,
      preemptions: seq.preemptions,
    };
    seq.callbacks?.onFinish?.(result);
    if (this.listenerCount('finished') > 0) this.emit('finished', result);
  }
}
