import {
  SwitchyardError,
  definePlugin,
  type CycleContext,
  type DataProducer,
  type Endpoint,
  type PluginDefinition,
  type SchedulingRequest,
  type TimerHandle,
} from '@switchyard/core';
import { z } from 'zod';
import { encodePromptBytes } from '../hashing/prompt-bytes.js';
import { matchInfo } from '../api/records.js';
import { PrefixAttributes, matchInfoAttribute } from './attributes.js';
import { assignBurst, type BurstMember } from './burst-assign.js';
import type { PrefixPluginEnv } from './env.js';

/** Type name of llm-d's burst prefix producer. @public */
export const BURST_PREFIX_PRODUCER = 'burst-prefix-cache-producer';

const minusOneOrPositive = z.number().int().refine((v) => v === -1 || v >= 1, { error: 'must be -1 (unlimited) or >= 1' });

/**
 * Parameters of `burst-prefix-cache-producer`, with llm-d's names, defaults and bounds.
 * @public
 */
export const burstProducerParameters = z
  .strictObject({
    windowDurationMs: z.number().int().min(1).max(10_000).default(100),
    maxPerReplica: minusOneOrPositive.default(-1),
    blockSizeTokens: z.number().int().positive().default(64),
    maxPrefixTokensToMatch: z.number().int().min(0).default(0),
    minColocateBlocks: z.number().int().min(0).default(0),
    maxBatchSize: minusOneOrPositive.default(1000),
    balanceBy: z.enum(['requests', 'tokens']).default('requests'),
  })
  .refine((p) => p.maxPrefixTokensToMatch === 0 || p.maxPrefixTokensToMatch >= p.blockSizeTokens, { error: 'must be 0 or at least blockSizeTokens', path: ['maxPrefixTokensToMatch'] })
  .prefault({});

/** Parsed `burst-prefix-cache-producer` parameters. @public */
export type BurstProducerParams = z.output<typeof burstProducerParameters>;

interface Waiter extends BurstMember {
  readonly request: SchedulingRequest;
  readonly endpoints: readonly Endpoint[];
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * `burst-prefix-cache-producer` (llm-d, alpha): co-locates bursts of requests that share a
 * prompt before any server has cached it (e.g. the samples of one RL rollout group), so the
 * shared prefix is prefilled once. The first request opens a batch; every request of the batch
 * waits until it is sealed `windowDurationMs` later; then groups of identical prompts (and, with
 * `minColocateBlocks`, prompts sharing their first blocks) are assigned to replicas within a
 * fair share (see `assignBurst`). The assigned replica gets `matchBlocks = totalBlocks` and every
 * other candidate 0, for a `prefix-cache-scorer` with `prefixMatchInfoProducerName` naming it.
 * @public
 */
export class BurstPrefixProducer implements DataProducer {
  /** `burst-prefix-cache-producer`. */
  readonly type = BURST_PREFIX_PRODUCER;
  /** Attributes written. */
  readonly produces: readonly string[];
  /** Attributes read. */
  readonly consumes: readonly string[] = [PrefixAttributes.promptBytes.name];
  #batch: Waiter[] | undefined;
  #timer: TimerHandle | undefined;
  #clock: CycleContext['clock'] | undefined;

  constructor(readonly name: string, private readonly p: BurstProducerParams, private readonly env: PrefixPluginEnv) {
    this.produces = [matchInfoAttribute(name).name];
  }

  produce(ctx: CycleContext, request: SchedulingRequest, endpoints: readonly Endpoint[], signal?: AbortSignal): Promise<void> {
    const p = this.p;
    const prompts = request.attributes.get(PrefixAttributes.promptBytes)?.prompts ?? encodePromptBytes(request.request.prompt);
    const maxBlocks = p.maxPrefixTokensToMatch === 0 ? 2048 : Math.floor(p.maxPrefixTokensToMatch / p.blockSizeTokens);
    const hashed = this.env.hasher.hashPrompts(prompts, request.targetModel, request.request.cacheSalt, { blockSizeTokens: p.blockSizeTokens, maxBlocks });
    const keys = hashed.chains.flatMap((c) => [...c]);
    if (this.#batch === undefined) {
      this.#batch = [];
      this.#clock = ctx.clock;
      this.#timer = ctx.clock.setTimeout(() => {
        this.#seal();
      }, p.windowDurationMs);
    }
    const batch = this.#batch;
    if (p.maxBatchSize > 0 && batch.length >= p.maxBatchSize) return Promise.reject(new SwitchyardError('INTERNAL', 'burst prefix batch full'));
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { request, endpoints, keys, candidates: endpoints.map((e) => e.id), resolve, reject };
      batch.push(waiter);
      signal?.addEventListener('abort', () => {
        // A cancelled request leaves the batch; the others are placed without it.
        const i = batch.indexOf(waiter);
        if (i >= 0) batch.splice(i, 1);
        reject(new SwitchyardError('REJECTED_CONTEXT_CANCELLED', 'the client cancelled the request'));
      }, { once: true });
    });
  }

  #seal(): void {
    const batch = this.#batch ?? [];
    this.#batch = undefined;
    this.#timer = undefined;
    const running = new Map<string, number>();
    for (const w of batch) for (const e of w.endpoints) running.set(e.id, e.metrics?.runningRequestsSize ?? 0);
    const targets = assignBurst(batch, { maxPerReplica: this.p.maxPerReplica, minColocateBlocks: this.p.minColocateBlocks, balanceBy: this.p.balanceBy, running: (id) => running.get(id) ?? 0 });
    batch.forEach((w, i) => {
      const target = targets[i];
      const total = w.keys.length;
      const info = new Map(w.candidates.map((id) => [id, matchInfo(id === target ? total : 0, total, this.p.blockSizeTokens, id === target ? total : 0)]));
      w.request.attributes.set(matchInfoAttribute(this.name), info);
      w.resolve();
    });
  }

  /** Releases the requests of an open batch unplaced (shutdown must not strand them). */
  close(): void {
    if (this.#timer !== undefined) this.#clock?.clearTimeout(this.#timer);
    const batch = this.#batch ?? [];
    this.#batch = undefined;
    for (const w of batch) w.resolve();
  }
}

/**
 * Plugin definition of `burst-prefix-cache-producer`.
 * @public
 */
export function burstProducerDefinition(env: PrefixPluginEnv): PluginDefinition<BurstProducerParams> {
  return definePlugin({
    type: BURST_PREFIX_PRODUCER,
    description: 'Co-locates bursts of prompt-sharing requests (batched over a short window) on shared replicas.',
    parameters: burstProducerParameters,
    consumes: [PrefixAttributes.promptBytes.name],
    produces: [matchInfoAttribute(BURST_PREFIX_PRODUCER).name],
    create: (p, ctx) => new BurstPrefixProducer(ctx.name, p, env),
  });
}
