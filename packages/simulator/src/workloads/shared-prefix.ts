import { SwitchyardError } from '@switchyard/core';
import { createRng, mix32 } from '../util/prng.js';
import { poissonArrivals } from './arrivals.js';
import type { Workload, WorkloadItem } from './types.js';

/**
 * Parameters of {@link sharedPrefixWorkload}, named after inference-perf's `shared_prefix` data
 * generator (SGLang's `generated-shared-prefix` has the same shape).
 * @public
 * @category Workloads
 */
export interface SharedPrefixOptions {
  /** Groups, each with its own system prompt (default 64). */
  readonly numGroups?: number;
  /** Distinct questions per group (default 16). */
  readonly numPromptsPerGroup?: number;
  /** System prompt tokens shared by a group (default 2048). */
  readonly systemPromptLen?: number;
  /** Question tokens unique to each prompt (default 128). */
  readonly questionLen?: number;
  /** Output tokens per request (default 256). */
  readonly outputLen?: number;
  /** Poisson arrival rate, requests/s (default 10). */
  readonly rate?: number;
  /** Length of the run, ms (default 60 000). */
  readonly durationMs?: number;
  /** Seed (default 1). */
  readonly seed?: number;
  /**
   * Repeat one random order in every round through the prompts, as inference-perf does (it
   * shuffles its prompt list once and sends prompt `i mod n`). Default false: a fresh order per
   * round, because a fixed cycle beats in lock-step with periodic pickers (round-robin sends a
   * prompt to the same few pods every round when the cycle length and the pod count share
   * factors) and makes every reuse distance exactly one round, an LRU cliff real traffic lacks.
   */
  readonly fixedOrder?: boolean;
  /**
   * Zipf exponent of group popularity (default 0: every prompt once per round). Above 0 each
   * request draws its group with probability ∝ 1/rank^zipf and a question uniformly, so a few hot
   * groups recur constantly and a long tail recurs rarely, as real system prompts do.
   */
  readonly zipf?: number;
}

const positive = (v: number, name: string): number => {
  if (!Number.isFinite(v) || v <= 0) throw new SwitchyardError('CONFIG_INVALID', `workload.${name}: expected a positive number, got ${String(v)}`);
  return v;
};

/**
 * Shared-prefix groups: `numGroups` system prompts, each followed by one of
 * `numPromptsPerGroup` questions. Requests arrive as a Poisson process and cycle through every
 * (group, question) pair in a random order per round (or one order repeated, `fixedOrder`), so
 * every prompt recurs once per round and a prompt's second occurrence is a full-prefix hit
 * wherever its first ran. The defaults are SGLang's `generated-shared-prefix` shape;
 * inference-perf's own defaults (10 × 10, 100 + 50 tokens, output 50) are too short to span a
 * 64-token hash block.
 * @public
 * @category Workloads
 */
export function sharedPrefixWorkload(options: SharedPrefixOptions = {}): Workload {
  const p = {
    numGroups: positive(options.numGroups ?? 64, 'numGroups'),
    numPromptsPerGroup: positive(options.numPromptsPerGroup ?? 16, 'numPromptsPerGroup'),
    systemPromptLen: positive(options.systemPromptLen ?? 2048, 'systemPromptLen'),
    questionLen: positive(options.questionLen ?? 128, 'questionLen'),
    outputLen: positive(options.outputLen ?? 256, 'outputLen'),
    rate: positive(options.rate ?? 10, 'rate'),
    durationMs: positive(options.durationMs ?? 60_000, 'durationMs'),
    seed: options.seed ?? 1,
    fixedOrder: options.fixedOrder ?? false,
    zipf: options.zipf ?? 0,
  };
  if (!Number.isFinite(p.zipf) || p.zipf < 0) throw new SwitchyardError('CONFIG_INVALID', `workload.zipf: expected a number >= 0, got ${String(p.zipf)}`);
  const rng = createRng(p.seed);
  const arrivals = poissonArrivals(rng.fork('arrivals'), p.rate, p.durationMs);
  const pick = rng.fork('order');
  const total = p.numGroups * p.numPromptsPerGroup;
  let order: number[] = [];
  const cumulative = zipfCumulative(p.numGroups, p.zipf);
  const items: WorkloadItem[] = arrivals.map((arrivalMs, i) => {
    if (p.zipf === 0 && (i === 0 || (!p.fixedOrder && i % total === 0))) {
      order = Array.from({ length: total }, (_, k) => k);
      for (let k = total - 1; k > 0; k--) {
        const j = pick.int(k + 1);
        [order[k], order[j]] = [order[j] ?? 0, order[k] ?? 0];
      }
    }
    const promptIndex = p.zipf === 0 ? (order[i % total] ?? 0) : drawZipf(cumulative, pick.next()) * p.numPromptsPerGroup + pick.int(p.numPromptsPerGroup);
    const group = Math.floor(promptIndex / p.numPromptsPerGroup);
    return {
      id: `sp-${i}`,
      arrivalMs,
      prompt: [
        { seed: mix32(p.seed * 7919 + group + 1), length: p.systemPromptLen },
        { seed: mix32(p.seed * 104_729 + promptIndex + 0x51ed), length: p.questionLen },
      ],
      promptLength: p.systemPromptLen + p.questionLen,
      maxOutputTokens: p.outputLen,
      outputSeed: mix32(p.seed * 31 + i + 0x0fee),
      tenant: 'default',
      priority: 0,
      adapter: undefined,
      session: `group-${group}`,
      after: undefined,
      delayMs: 0,
    };
  });
  return {
    name: 'shared-prefix',
    description: `${p.numGroups} groups${p.zipf > 0 ? ` (Zipf ${p.zipf})` : ''} × ${p.numPromptsPerGroup} prompts, system ${p.systemPromptLen} + question ${p.questionLen} tokens, output ${p.outputLen}, ${p.rate} req/s for ${p.durationMs / 1000} s`,
    params: p,
    items,
  };
}

/** Cumulative Zipf weights over `n` ranks, normalised to 1 (empty for exponent 0). */
function zipfCumulative(n: number, exponent: number): Float64Array {
  if (exponent === 0) return new Float64Array(0);
  const c = new Float64Array(n);
  let sum = 0;
  for (let k = 0; k < n; k++) c[k] = sum += 1 / Math.pow(k + 1, exponent);
  for (let k = 0; k < n; k++) c[k] = (c[k] ?? 0) / sum;
  return c;
}

/** The rank whose cumulative weight first reaches `u` (binary search). */
function drawZipf(cumulative: Float64Array, u: number): number {
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((cumulative[mid] ?? 1) < u) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
