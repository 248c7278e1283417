import type { BlockManager } from './block-manager.js';
import { StepShape } from './cost-model.js';
import type { EngineStats } from './engine-stats.js';
import type { LoraManager } from './lora-manager.js';
import type { Sequence, SequenceStatus } from './sequence.js';
import type { EngineConfig, FinishReason } from './types.js';
import { Deque } from '../util/deque.js';

/**
 * The work of one step: parallel arrays of sequences and their scheduled token counts, plus the
 * step's cost shape. Reused across steps.
 * @internal
 */
export class StepPlan {
  readonly seqs: Sequence[] = [];
  readonly counts: number[] = [];
  length = 0;
  readonly shape = new StepShape();

  reset(): void {
    this.length = 0;
    this.shape.reset();
  }

  add(seq: Sequence, n: number): void {
    this.seqs[this.length] = seq;
    this.counts[this.length] = n;
    this.length++;
  }
}

/**
 * What the batch scheduler reports back to the engine.
 * @internal
 */
export interface SchedulerHooks {
  token(seq: Sequence, tokenId: number, index: number, now: number): void;
  finish(seq: Sequence, reason: FinishReason, now: number): void;
}

/**
 * vLLM v1's scheduler loop: running sequences first (each gets its remaining prefill chunk or one
 * decode token, preempting the most recently admitted sequence by recompute when blocks run
 * out), then waiting sequences in FCFS order while `max_num_seqs` and the token budget allow,
 * each starting after its longest cached prefix. Work per step is O(sequences scheduled).
 * @internal
 */
export class BatchScheduler {
  readonly waiting = new Deque<Sequence>(64);
  running: Sequence[] = [];
  /** Live (non-aborted) sequences in `waiting`. */
  waitingCount = 0;
  readonly #config: EngineConfig;
  readonly #blocks: BlockManager;
  readonly #lora: LoraManager;
  readonly #stats: EngineStats;
  readonly #hooks: SchedulerHooks;
  readonly #scratch: Uint32Array;
  readonly #skipped: Sequence[] = [];

  constructor(config: EngineConfig, blocks: BlockManager, lora: LoraManager, stats: EngineStats, hooks: SchedulerHooks) {
    this.#config = config;
    this.#blocks = blocks;
    this.#lora = lora;
    this.#stats = stats;
    this.#hooks = hooks;
    this.#scratch = new Uint32Array(config.blockSize);
  }

  /** Queues a new (or preempted, at the front) sequence. */
  enqueue(seq: Sequence, front: boolean): void {
    seq.status = 'waiting';
    if (front) this.waiting.pushFront(seq);
    else this.waiting.pushBack(seq);
    this.waitingCount++;
    if (seq.adapter !== undefined && !seq.countedWaiting) {
      seq.countedWaiting = true;
      this.#lora.addWaiting(seq.adapter, 1);
    }
  }

  /** Builds the next step into `plan`. */
  schedule(plan: StepPlan, now: number): void {
    const bs = this.#config.blockSize;
    let budget = this.#config.maxNumBatchedTokens;
    let preempted = false;
    const running = this.running;
    for (let i = 0; i < running.length && budget > 0; i++) {
      const seq = running[i] as Sequence;
      const numNew = Math.min(seq.numTokens - seq.numComputed, budget);
      if (numNew <= 0) continue;
      while (!this.#blocks.grow(seq, seq.numComputed + numNew)) {
        const victim = running.pop() as Sequence;
        this.#preempt(victim);
        preempted = true;
        if (victim === seq) break;
      }
      if (seq.status !== 'running') break;
      if (seq.numOutput > 0 && numNew === 1 && seq.numComputed === seq.numTokens - 1) plan.shape.addDecode(seq.numComputed);
      else plan.shape.addPrefill(seq.numComputed, numNew);
      this.#commit(seq, seq.numComputed + numNew, bs);
      plan.add(seq, numNew);
      budget -= numNew;
    }
    // Like vLLM, admit nothing new in a step that had to preempt.
    if (!preempted) this.#admitWaiting(plan, budget, now, bs);
  }

  #admitWaiting(plan: StepPlan, budget: number, now: number, bs: number): void {
    const running = this.running;
    const skipped = this.#skipped;
    while (this.waiting.size > 0 && running.length < this.#config.maxNumSeqs && budget > 0) {
      const seq = this.waiting.peekFront() as Sequence;
      if (seq.status !== 'waiting') {
        this.waiting.popFront();
        continue;
      }
      if (seq.adapter !== undefined && !this.#lora.ready(seq.adapter)) {
        this.waiting.popFront();
        skipped.push(seq);
        continue;
      }
      let gpu = 0;
      let cpu = 0;
      let evictable = 0;
      if (this.#config.enablePrefixCaching) {
        // At least one token must be computed to produce logits, so the last token never hits.
        const maxHit = Math.floor((seq.numTokens - 1) / bs);
        seq.ensureHashes(Math.floor(seq.numTokens / bs), bs, this.#scratch);
        ({ gpu, cpu, evictable } = this.#blocks.matchPrefix(seq.hashes, maxHit));
      }
      const computed = (gpu + cpu) * bs;
      const numNew = Math.min(seq.numTokens - computed, budget);
      if (!this.#blocks.admit(seq, gpu, evictable, cpu, computed + numNew)) break;
      this.waiting.popFront();
      this.waitingCount--;
      if (seq.adapter !== undefined) {
        seq.countedWaiting = false;
        this.#lora.addWaiting(seq.adapter, -1);
        this.#lora.addRunning(seq.adapter, 1);
      }
      seq.status = 'running';
      seq.numComputed = computed;
      running.push(seq);
      if (seq.scheduledAt === undefined) {
        seq.scheduledAt = now;
        seq.cachedTokens = computed;
        this.#stats.queueTime.observe((now - seq.arrivedAt) / 1000);
        this.#stats.promptTokens += seq.promptLength;
      }
      this.#stats.prefixCacheQueries += seq.numTokens;
      this.#stats.prefixCacheHits += computed;
      plan.shape.addPrefill(computed, numNew);
      plan.shape.cpuBlocks += cpu;
      this.#commit(seq, computed + numNew, bs);
      plan.add(seq, numNew);
      budget -= numNew;
    }
    for (let k = skipped.length - 1; k >= 0; k--) this.waiting.pushFront(skipped[k] as Sequence);
    skipped.length = 0;
  }

  /** Applies a finished step: advances sequences, samples tokens, finishes requests. */
  complete(plan: StepPlan, now: number): void {
    let finished = false;
    for (let k = 0; k < plan.length; k++) {
      const seq = plan.seqs[k] as Sequence;
      if (seq.status !== 'running') continue;
      seq.numComputed += plan.counts[k] ?? 0;
      if (seq.numComputed < seq.numTokens) continue;
      const index = seq.numOutput++;
      const token = seq.tokenAt(seq.promptLength + index);
      this.#stats.generationTokens++;
      if (index === 0) {
        seq.firstTokenAt = now;
        this.#stats.ttft.observe((now - seq.arrivedAt) / 1000);
      } else {
        this.#stats.itl.observe((now - seq.lastTokenAt) / 1000);
      }
      seq.lastTokenAt = now;
      this.#hooks.token(seq, token, index, now);
      // The token callback may have aborted the request (client gone).
      if ((seq.status as SequenceStatus) === 'running' && (seq.numOutput >= seq.maxOutput || seq.numTokens >= this.#config.maxModelLen)) {
        this.release(seq);
        seq.status = 'finished';
        finished = true;
        this.#hooks.finish(seq, 'length', now);
      }
    }
    if (finished) this.#compactRunning();
    for (let k = 0; k < plan.length; k++) plan.seqs[k] = undefined as unknown as Sequence;
  }

  /** Aborts a sequence wherever it is. */
  abort(seq: Sequence): void {
    if (seq.status === 'waiting') {
      this.waitingCount--;
      if (seq.adapter !== undefined && seq.countedWaiting) {
        seq.countedWaiting = false;
        this.#lora.addWaiting(seq.adapter, -1);
      }
    } else if (seq.status === 'running') {
      this.release(seq);
      const i = this.running.indexOf(seq);
      if (i >= 0) this.running.splice(i, 1);
    }
    seq.status = 'aborted';
  }

  /** Frees a running sequence's blocks and LoRA use. */
  release(seq: Sequence): void {
    this.#blocks.release(seq);
    if (seq.adapter !== undefined) this.#lora.addRunning(seq.adapter, -1);
  }

  #preempt(seq: Sequence): void {
    this.release(seq);
    seq.numComputed = 0;
    seq.preemptions++;
    this.#stats.preemptions++;
    this.enqueue(seq, true);
  }

  #commit(seq: Sequence, computedAfter: number, bs: number): void {
    const upTo = Math.floor(computedAfter / bs);
    if (upTo <= seq.numCommitted || !this.#config.enablePrefixCaching) return;
    seq.ensureHashes(upTo, bs, this.#scratch);
    this.#blocks.commit(seq, upTo);
  }

  #compactRunning(): void {
    const running = this.running;
    let w = 0;
    for (let r = 0; r < running.length; r++) {
      const seq = running[r] as Sequence;
      if (seq.status === 'running') running[w++] = seq;
    }
    running.length = w;
  }
}
