import type { Rng } from '../util/prng.js';
import type { CostModelParams } from './types.js';

/**
 * The shape of one engine step, accumulated while the scheduler builds the batch. Reused across
 * steps (call {@link StepShape.reset}) so a step allocates nothing.
 * @public
 * @category Engine
 */
export class StepShape {
  /** Sequences in the batch. */
  seqs = 0;
  /** Tokens scheduled (prefill chunk tokens + one per decoding sequence). */
  tokens = 0;
  /** Σ(2·c·n + n²) over prefill chunks (n new tokens after c computed ones). */
  attentionPairs = 0;
  /** Σ context length over decoding sequences. */
  decodeContext = 0;
  /** Blocks loaded from the CPU tier. */
  cpuBlocks = 0;

  /** Clears the accumulators. */
  reset(): void {
    this.seqs = 0;
    this.tokens = 0;
    this.attentionPairs = 0;
    this.decodeContext = 0;
    this.cpuBlocks = 0;
  }

  /** Adds a prefill chunk of `n` new tokens after `computed` tokens already in the KV cache. */
  addPrefill(computed: number, n: number): void {
    this.seqs++;
    this.tokens += n;
    this.attentionPairs += 2 * computed * n + n * n;
  }

  /** Adds one decoding sequence whose context holds `context` tokens. */
  addDecode(context: number): void {
    this.seqs++;
    this.tokens += 1;
    this.decodeContext += context;
  }
}

/**
 * Deterministic part of a step's duration in ms (no jitter).
 * @public
 * @category Engine
 */
export function baseStepTimeMs(p: CostModelParams, s: StepShape): number {
  if (s.seqs === 0 && s.cpuBlocks === 0) return 0;
  return (
    p.stepOverheadMs +
    p.perSeqMs * s.seqs +
    Math.max(p.weightReadMs, p.perTokenMs * s.tokens) +
    p.attentionPairNs * 1e-6 * s.attentionPairs +
    p.decodeContextNs * 1e-6 * s.decodeContext +
    p.cpuLoadPerBlockMs * s.cpuBlocks
  );
}

/**
 * Duration of a step in ms: {@link baseStepTimeMs} times `1 + jitter·z` with z standard normal
 * drawn from `rng`, clamped to ±3σ so a step never takes negative or absurd time.
 * @public
 * @category Engine
 */
export function stepTimeMs(p: CostModelParams, s: StepShape, rng: Rng): number {
  const base = baseStepTimeMs(p, s);
  if (p.jitter <= 0 || base === 0) return base;
  const z = Math.max(-3, Math.min(3, rng.normal()));
  return base * Math.max(0.05, 1 + p.jitter * z);
}
