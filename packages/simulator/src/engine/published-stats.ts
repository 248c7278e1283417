import type { BlockManager } from './block-manager.js';
import type { LoraManager } from './lora-manager.js';
import type { BatchScheduler } from './scheduler-step.js';

const NONE: readonly string[] = Object.freeze([]);

/**
 * Point-in-time state of an engine: live (`EngineModel.snapshot()`) or as its metrics show it
 * (`EngineModel.metricsSnapshot()`).
 * @public
 * @category Engine
 */
export interface EngineSnapshot {
  /** Clock time of the snapshot (ms). */
  readonly at: number;
  /** Requests running (vLLM `num_requests_running`). */
  readonly running: number;
  /** Requests waiting (vLLM `num_requests_waiting`). */
  readonly waiting: number;
  /** Fraction of GPU blocks in use (vLLM `kv_cache_usage_perc`). */
  readonly kvCacheUsage: number;
  /** GPU blocks in use. */
  readonly usedBlocks: number;
  /** GPU blocks holding a cached hash. */
  readonly cachedBlocks: number;
  /** Adapters with running requests. */
  readonly runningAdapters: readonly string[];
  /** Adapters with waiting requests. */
  readonly waitingAdapters: readonly string[];
}

/**
 * The scheduler statistics an engine publishes, with vLLM v1's timing: the gauges behind
 * `/metrics` (`num_requests_running`, `num_requests_waiting`, `kv_cache_usage_perc`, the LoRA
 * info) are refreshed once per engine step, from the scheduler's state after the step's
 * scheduling pass and its results. A request that arrives while a step executes is not in the
 * scheduler's waiting queue yet (vLLM drains its input queue between steps), so it is not
 * counted as waiting; the next step usually admits it. Counting it would make every pod in the
 * middle of a long prefill look queued to a load scorer, which real pods do not.
 * @internal
 */
export class PublishedStats {
  running = 0;
  waiting = 0;
  usedBlocks = 0;
  cachedBlocks = 0;
  at = 0;
  runningAdapters: readonly string[] = NONE;
  waitingAdapters: readonly string[] = NONE;
  #waitingAfterSchedule = 0;
  #waitingAdaptersAfterSchedule: readonly string[] = NONE;
  readonly #sched: BatchScheduler;
  readonly #blocks: BlockManager;
  readonly #lora: LoraManager;
  readonly #adapters: boolean;

  constructor(sched: BatchScheduler, blocks: BlockManager, lora: LoraManager, adapters: boolean) {
    this.#sched = sched;
    this.#blocks = blocks;
    this.#lora = lora;
    this.#adapters = adapters;
  }

  /** Right after a scheduling pass: what is still waiting is what the pass could not admit. */
  scheduled(): void {
    this.#waitingAfterSchedule = this.#sched.waitingCount;
    if (this.#adapters) this.#waitingAdaptersAfterSchedule = this.#lora.waitingAdapters();
  }

  /** At the end of a step (or of a pass that scheduled nothing): refresh the gauges. */
  publish(now: number): void {
    this.at = now;
    this.running = this.#sched.running.length;
    this.waiting = this.#waitingAfterSchedule;
    this.usedBlocks = this.#blocks.numUsed;
    this.cachedBlocks = this.#blocks.numCached;
    if (this.#adapters) {
      this.runningAdapters = this.#lora.runningAdapters();
      this.waitingAdapters = this.#waitingAdaptersAfterSchedule;
    }
  }

  /** The published gauges as a snapshot. */
  snapshot(): EngineSnapshot {
    return {
      at: this.at,
      running: this.running,
      waiting: this.waiting,
      kvCacheUsage: this.usedBlocks / this.#blocks.numBlocks,
      usedBlocks: this.usedBlocks,
      cachedBlocks: this.cachedBlocks,
      runningAdapters: this.runningAdapters,
      waitingAdapters: this.waitingAdapters,
    };
  }

  /** Outside any step (an abort on an idle engine): the gauges take the live state. */
  publishLive(now: number): void {
    this.scheduled();
    this.publish(now);
  }
}
