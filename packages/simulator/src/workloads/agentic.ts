import { createRng, mix32 } from '../util/prng.js';
import type { Rng } from '../util/prng.js';
import { burstyArrivals, clamp } from './arrivals.js';
import { generatedLength, prefixParts, promptLengthOf } from './prompt.js';
import type { PromptPart, Workload, WorkloadItem } from './types.js';

/**
 * Parameters of {@link agenticWorkload}. Token counts are multiplied by `scale`.
 * @public
 * @category Workloads
 */
export interface AgenticOptions {
  /** Multiplies every token count (default 1: median input ≈195K tokens). Use e.g. 0.05 for quick runs. */
  readonly scale?: number;
  /** Session arrival rate, sessions/s (default 0.05). */
  readonly sessionRate?: number;
  /** Sessions start during `[0, durationMs)` (default 600 000). */
  readonly durationMs?: number;
  /** Median turns per session (default 60; the published median is 107). */
  readonly medianTurns?: number;
  /** Probability that a follow-up turn resets or compacts its context (default 0.02). */
  readonly resetProbability?: number;
  /** Upper bound on a prompt, in tokens before scaling (default 900 000). */
  readonly maxInputTokens?: number;
  /** Probability that a main-agent turn fans out to sub-agents (default 0.1). */
  readonly fanOutProbability?: number;
  /** Median sub-agents of a fan-out (default 7; the published p90 is 51). */
  readonly medianSubAgents?: number;
  /** Coefficient of variation of session inter-arrival times (default 3; 1 = Poisson). */
  readonly arrivalCv?: number;
  /** Seed (default 1). */
  readonly seed?: number;
}

/** Log-normal shape parameters fitted to the published p50/p90 of a Claude Code trace study. */
const SHAPE = {
  /** Initial context (system prompt, tools, repository files); growth and compactions roughly cancel, so inputs' median stays ≈195K. */
  initial: { median: 178_000, sigma: 0.55 },
  /** Output per turn: p50 317, p90 1 705 → σ = ln(1705/317)/1.2816. */
  output: { median: 317, sigma: 1.31 },
  /** New input per turn (tool results, user text): p50 632, p90 3 735 → σ = 1.39. */
  growth: { median: 632, sigma: 1.39 },
  /** Gap between turns: p50 2 s, p90 24 s → σ = 1.94. */
  gapMs: { median: 2000, sigma: 1.94 },
  /** Turns per session: p90/p50 ≈ 3.3 → σ = 0.93. */
  turnsSigma: 0.93,
  /** Sub-agents per fan-out: p50 7, p90 51 → σ = 1.55. */
  subAgentsSigma: 1.55,
  /** The system prompt and tool definitions every session and sub-agent starts with. */
  systemTokens: 20_000,
  /** A sub-agent's own task and context before its first answer. */
  subAgentTask: { median: 8000, sigma: 0.8 },
};

/** `max_tokens` the agent sends; answers stop well before it. */
const MAX_TOKENS = 32_000;

/**
 * Agentic coding sessions shaped like the published study of Claude Code traces: each session
 * starts from a large context and every turn appends the previous answer plus new input, so a
 * turn reuses almost all of the previous turn's input (median input ≈195K, output ≈317 tokens;
 * ≈96% of requests reuse ≥90% of a previous request's input). A few turns reset or compact the
 * context, keeping only part of it. Turns are closed-loop: each waits for the previous answer, then
 * a think time.
 * @public
 * @category Workloads
 */
export function agenticWorkload(options: AgenticOptions = {}): Workload {
  const p = {
    scale: options.scale ?? 1,
    sessionRate: options.sessionRate ?? 0.05,
    durationMs: options.durationMs ?? 600_000,
    medianTurns: options.medianTurns ?? 60,
    resetProbability: options.resetProbability ?? 0.02,
    maxInputTokens: options.maxInputTokens ?? 900_000,
    fanOutProbability: options.fanOutProbability ?? 0.1,
    medianSubAgents: options.medianSubAgents ?? 7,
    arrivalCv: options.arrivalCv ?? 3,
    seed: options.seed ?? 1,
  };
  const rng = createRng(p.seed);
  const starts = burstyArrivals(rng.fork('sessions'), p.sessionRate, p.durationMs, p.arrivalCv);
  // Output lengths are not scaled: `scale` shrinks contexts for quick runs, answers stay realistic.
  const answerLength = (r: Rng): number => Math.round(clamp(r.lognormal(SHAPE.output.median, SHAPE.output.sigma), 1, 8000));

  const tok = (n: number): number => Math.max(1, Math.round(n * p.scale));
  const maxInput = tok(p.maxInputTokens);
  const system: PromptPart = { seed: mix32(p.seed * 3 + 0x5157), length: tok(SHAPE.systemTokens) };
  const items: WorkloadItem[] = [];
  starts.forEach((start, s) => {
    const r = rng.fork(`session-${s}`);
    const turns = Math.round(clamp(r.lognormal(p.medianTurns, SHAPE.turnsSigma), 2, 1000));
    let prompt: PromptPart[] = [system, { seed: mix32(p.seed * 65_537 + s), length: Math.min(maxInput, tok(r.lognormal(SHAPE.initial.median, SHAPE.initial.sigma))) }];
    let length = promptLengthOf(prompt);
    let t = start;
    let prev: WorkloadItem | undefined;
    for (let k = 0; k < turns; k++) {
      let gap = 0;
      if (prev !== undefined) {
        gap = clamp(r.lognormal(SHAPE.gapMs.median, SHAPE.gapMs.sigma), 100, 11.4 * 60_000);
        // The previous answer, then new input (tool output, user text).
        // The previous answer as the engine generated it, cut to `scale` of its length so scaled
        // runs keep the published context shape (the cut part is still a cached prefix).
        const answer = Math.min(generatedLength(prev), tok(generatedLength(prev)));
        prompt = [...prompt, { seed: prev.outputSeed, length: answer }];
        length += answer;
        if (r.next() < p.resetProbability) {
          // Reset or compaction: keep a part of the context, replace the rest with a summary.
          const keep = Math.floor(r.uniform(0, 0.85) * length);
          prompt = prefixParts(prompt, keep);
          const summary = Math.max(1, Math.round(r.uniform(0.05, 0.3) * (length - keep)));
          prompt.push({ seed: mix32(p.seed * 7 + s * 1009 + k), length: summary });
          length = keep + summary;
        }
        const growth = tok(clamp(r.lognormal(SHAPE.growth.median, SHAPE.growth.sigma), 16, 200_000));
        prompt.push({ seed: mix32(p.seed * 13 + s * 7919 + k), length: growth });
        length += growth;
        if (length > maxInput) {
          // Context limit reached: the session compacts to half its window.
          const keep = Math.floor(maxInput / 2);
          prompt = [...prefixParts(prompt, keep), { seed: mix32(p.seed * 17 + s * 31 + k), length: tok(2000) }];
          length = keep + tok(2000);
        }
        t += gap + 2000 + generatedLength(prev) * 10; // open-loop estimate: think time + serving time
      }
      const item: WorkloadItem = {
        id: `ag-${s}-${k}`,
        arrivalMs: t,
        prompt,
        promptLength: length,
        maxOutputTokens: MAX_TOKENS,
        outputLength: answerLength(r),
        outputSeed: mix32(p.seed * 101 + s * 65_599 + k),
        tenant: 'default',
        priority: 0,
        adapter: undefined,
        session: `session-${s}`,
        after: prev?.id,
        delayMs: gap,
      };
      items.push(item);
      prev = item;
      if (k > 0 && r.next() < p.fanOutProbability) {
        // Sub-agents start together once this turn's answer is in: the system prompt, then each its own task.
        const n = Math.round(clamp(r.lognormal(p.medianSubAgents, SHAPE.subAgentsSigma), 1, 200));
        for (let j = 0; j < n; j++) {
          const task = tok(clamp(r.lognormal(SHAPE.subAgentTask.median, SHAPE.subAgentTask.sigma), 200, 100_000));
          items.push({
            id: `ag-${s}-${k}-sub-${j}`,
            arrivalMs: t + 2000,
            prompt: [system, { seed: mix32(p.seed * 19 + s * 7127 + k * 131 + j), length: task }],
            promptLength: (system as { length: number }).length + task,
            maxOutputTokens: MAX_TOKENS,
            outputLength: answerLength(r),
            outputSeed: mix32(p.seed * 23 + s * 7127 + k * 131 + j),
            tenant: 'default',
            priority: 0,
            adapter: undefined,
            session: `session-${s}-sub-${k}-${j}`,
            after: item.id,
            delayMs: 50 * j,
          });
        }
      }
    }
  });
  items.sort((a, b) => a.arrivalMs - b.arrivalMs);
  return {
    name: 'agentic',
    description: `${starts.length} agentic sessions (median ${p.medianTurns} turns, input median ≈${Math.round(195 * p.scale)}K tokens, scale ${p.scale}, output median ≈317 tokens, sub-agent fan-out p=${p.fanOutProbability} median ${p.medianSubAgents}, arrival CV ${p.arrivalCv})`,
    params: p,
    items,
  };
}
