import { createRng, mix32 } from '../util/prng.js';
import { clamp } from './arrivals.js';
import { generatedLength } from './prompt.js';
import type { PromptPart, Workload, WorkloadItem } from './types.js';

/**
 * Parameters of {@link multiTurnWorkload}; defaults follow vLLM's
 * `benchmarks/multi_turn/generate_multi_turn.json`.
 * @public
 * @category Workloads
 */
export interface MultiTurnOptions {
  /** Conversations (default 24). */
  readonly conversations?: number;
  /** Turns per conversation, uniform in [min, max] (default [12, 18]). */
  readonly turns?: readonly [number, number];
  /** Prefix shared by every conversation, tokens (default 500). */
  readonly commonPrefixLen?: number;
  /** Mean of the per-conversation prefix (log-normal, default 1000) and its cap (default 5000). */
  readonly conversationPrefixMean?: number;
  /** Cap of the per-conversation prefix (default 5000). */
  readonly conversationPrefixMax?: number;
  /** User turn tokens, uniform in [min, max] (default [120, 160]). */
  readonly userTokens?: readonly [number, number];
  /** Output tokens, uniform in [min, max] (default [80, 120]). */
  readonly outputTokens?: readonly [number, number];
  /** Conversation start rate, conversations/s (default 1). */
  readonly conversationRate?: number;
  /** Mean think time between an answer and the next user turn, ms (default 1000, exponential). */
  readonly thinkMs?: number;
  /** Seed (default 1). */
  readonly seed?: number;
}

/**
 * Multi-turn chat: conversations share a common system prefix, have their own prefix, and each
 * turn resends the whole history plus the previous answer and a new user message. Turns are
 * closed-loop (`after` the previous turn, then a think time).
 * @public
 * @category Workloads
 */
export function multiTurnWorkload(options: MultiTurnOptions = {}): Workload {
  const p = {
    conversations: options.conversations ?? 24,
    turns: options.turns ?? [12, 18],
    commonPrefixLen: options.commonPrefixLen ?? 500,
    conversationPrefixMean: options.conversationPrefixMean ?? 1000,
    conversationPrefixMax: options.conversationPrefixMax ?? 5000,
    userTokens: options.userTokens ?? [120, 160],
    outputTokens: options.outputTokens ?? [80, 120],
    conversationRate: options.conversationRate ?? 1,
    thinkMs: options.thinkMs ?? 1000,
    seed: options.seed ?? 1,
  };
  const rng = createRng(p.seed);
  const starts: number[] = [];
  let t0 = 0;
  const arrivals = rng.fork('arrivals');
  for (let c = 0; c < p.conversations; c++) {
    t0 += arrivals.exponential(1000 / p.conversationRate);
    starts.push(t0);
  }
  const between = (r: ReturnType<typeof createRng>, [lo, hi]: readonly [number, number]): number => lo + r.int(hi - lo + 1);
  // σ for a log-normal whose mean is `mean` with median mean/1.35.
  const sigma = Math.sqrt(2 * Math.log(1.35));
  const items: WorkloadItem[] = [];
  starts.forEach((start, c) => {
    const r = rng.fork(`conv-${c}`);
    const own = Math.round(clamp(r.lognormal(p.conversationPrefixMean / 1.35, sigma), 16, p.conversationPrefixMax));
    let prompt: PromptPart[] = [{ seed: mix32(p.seed * 3 + 0xc0111), length: p.commonPrefixLen }, { seed: mix32(p.seed * 977 + c), length: own }];
    let length = p.commonPrefixLen + own;
    let prev: WorkloadItem | undefined;
    let t = start;
    const turns = between(r, p.turns);
    for (let k = 0; k < turns; k++) {
      const think = prev === undefined ? 0 : r.exponential(p.thinkMs);
      if (prev !== undefined) {
        prompt = [...prompt, { seed: prev.outputSeed, length: generatedLength(prev) }];
        length += generatedLength(prev);
        t += think + 1500;
      }
      const user = between(r, p.userTokens);
      prompt = [...prompt, { seed: mix32(p.seed * 7 + c * 1013 + k), length: user }];
      length += user;
      const item: WorkloadItem = {
        id: `mt-${c}-${k}`,
        arrivalMs: t,
        prompt,
        promptLength: length,
        // The answer stops before max_tokens (the range's top), as real chat answers do.
        maxOutputTokens: p.outputTokens[1],
        outputLength: between(r, p.outputTokens),
        outputSeed: mix32(p.seed * 11 + c * 7919 + k),
        tenant: 'default',
        priority: 0,
        adapter: undefined,
        session: `conv-${c}`,
        after: prev?.id,
        delayMs: think,
      };
      items.push(item);
      prev = item;
    }
  });
  items.sort((a, b) => a.arrivalMs - b.arrivalMs);
  return {
    name: 'multi-turn',
    description: `${p.conversations} conversations × ${p.turns[0]}–${p.turns[1]} turns, common prefix ${p.commonPrefixLen}, own prefix ≈${p.conversationPrefixMean}, user ${p.userTokens[0]}–${p.userTokens[1]}, output ${p.outputTokens[0]}–${p.outputTokens[1]}`,
    params: p,
    items,
  };
}
