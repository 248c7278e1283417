import { StepShape, baseStepTimeMs } from './cost-model.js';
import { PROFILE_32B_H100, PROFILE_8B_H100 } from './profiles.js';
import type { EngineProfile } from './types.js';
import { idlePrefillMs } from '../bounds/ttft-bound.js';

/**
 * One published figure and what the engine model gives for it.
 * @public
 * @category Engine
 */
export interface CalibrationPoint {
  /** What is measured. */
  readonly what: string;
  /** Published value. */
  readonly published: number;
  /** Unit of both values. */
  readonly unit: 'ms' | 'tokens';
  /** Where it was published. */
  readonly source: string;
  /** `fit` when the parameters were fitted to it, `held-out` when it only checks them. */
  readonly role: 'fit' | 'held-out';
  /** The model's value. */
  readonly model: number;
}

const prefill = (p: EngineProfile, tokens: number): number => idlePrefillMs({ cost: { ...p.cost, jitter: 0 }, blockSize: p.blockSize, maxNumBatchedTokens: p.maxNumBatchedTokens }, tokens, 0);
const withPath = (p: EngineProfile, tokens: number): number => prefill(p, tokens) + (p.requestPath?.fixedMs ?? 1) + ((p.requestPath?.perPromptTokenUs ?? 0) * tokens) / 1000;
/** Decode step time of `batch` sequences holding `context` tokens in total. */
function decodeStep(p: EngineProfile, batch: number, context: number): number {
  const s = new StepShape();
  for (let i = 0; i < batch; i++) s.addDecode(context / batch);
  return baseStepTimeMs(p.cost, s);
}

const S4 = 'vLLM KV-offloading blog (2026-01-08), fig. 1: Llama-3.1-8B, 1×H100';
const S6 = 'llm-d-kv-cache benchmarking/73-capacity: Qwen3-32B, 2×H100 TP2';

/**
 * The calibration table of docs/simulator.md (the 8B prefill fit used all six published points): published figures beside the model's values.
 * Held-out rows were not used to fit any parameter. A test keeps every row within ±15%.
 * @public
 * @category Engine
 */
export function calibrationPoints(): CalibrationPoint[] {
  const p8 = PROFILE_8B_H100;
  const p32 = PROFILE_32B_H100;
  return [
    { what: '8B TTFT, 10K-token prompt', published: 260, unit: 'ms', source: S4, role: 'fit', model: prefill(p8, 10_000) },
    { what: '8B TTFT, 20K', published: 640, unit: 'ms', source: S4, role: 'fit', model: prefill(p8, 20_000) },
    { what: '8B TTFT, 30K', published: 1100, unit: 'ms', source: S4, role: 'fit', model: prefill(p8, 30_000) },
    { what: '8B TTFT, 50K', published: 2290, unit: 'ms', source: S4, role: 'fit', model: prefill(p8, 50_000) },
    { what: '8B TTFT, 70K', published: 3850, unit: 'ms', source: S4, role: 'fit', model: prefill(p8, 70_000) },
    { what: '8B TTFT, 100K', published: 6850, unit: 'ms', source: S4, role: 'fit', model: prefill(p8, 100_000) },
    { what: '8B KV capacity (tokens)', published: 410_128, unit: 'tokens', source: 'vLLM issue log, 8B on 1×H100 at gpu_memory_utilization 0.9', role: 'held-out', model: p8.numGpuBlocks * p8.blockSize },
    { what: '8B CPU-tier load of 100K tokens', published: 310, unit: 'ms', source: `${S4}, fig. 3`, role: 'held-out', model: Math.ceil(100_000 / p8.blockSize) * p8.cost.cpuLoadPerBlockMs },
    { what: '32B prefill, 8,192 tokens', published: 400, unit: 'ms', source: 'llm-d blog 2026-08-17 (sticky until saturated), calibration fig. 7.3.1', role: 'fit', model: prefill(p32, 8192) },
    { what: '32B TTFT through the request path, 8,192 tokens (peakPrefillThroughput 15,928 tok/s)', published: (8192 / 15_928) * 1000, unit: 'ms', source: 'llm-d router calibration guide', role: 'fit', model: withPath(p32, 8192) },
    // 73-capacity at 3 QPS over 8 pods: ~5 sequences per pod of ~7.7K context each.
    { what: '32B mean ITL at 3 QPS (≈5 seqs × 7.7K context)', published: 11, unit: 'ms', source: S6, role: 'fit', model: decodeStep(p32, 5, 5 * 7700) },
    // Saturated: the KV cache (307K tokens) full of ~7.7K-token sequences, ≈40 per pod.
    { what: '32B ITL saturated (≈40 seqs, 300K context), published 21–24 ms', published: 22.5, unit: 'ms', source: S6, role: 'held-out', model: decodeStep(p32, 40, 300_000) },
    { what: '32B KV capacity (tokens)', published: 307_328, unit: 'tokens', source: S6, role: 'fit', model: p32.numGpuBlocks * p32.blockSize },
  ];
}
