import { SwitchyardError } from '@switchyard/core';
import type { EngineProfile } from './types.js';

/**
 * Llama-3.1-8B on one H100 (TP1), vLLM v1 defaults. Prefill fit `23.1 µs·P + 0.454 ns·P²` to
 * published single-request TTFTs; decode from a trained roofline (6.9 ms at batch 1, +76 ns per
 * context token); ~26.4K blocks of 16 tokens at gpu_memory_utilization 0.9. See docs/simulator.md.
 * @public
 * @category Engine
 */
export const PROFILE_8B_H100: EngineProfile = {
  name: '8b-h100',
  description: 'Llama-3.1-8B, 1×H100 80GB, BF16, vLLM v1 defaults',
  model: 'meta-llama/Llama-3.1-8B-Instruct',
  cost: {
    stepOverheadMs: 1.2,
    weightReadMs: 5.7,
    perTokenMs: 0.023,
    attentionPairNs: 0.454,
    perSeqMs: 0.0044,
    decodeContextNs: 76,
    cpuLoadPerBlockMs: 0.045,
    jitter: 0.03,
  },
  numGpuBlocks: 26_400,
  blockSize: 16,
  maxNumSeqs: 1024,
  maxNumBatchedTokens: 8192,
  maxModelLen: 131_072,
};

/**
 * Qwen3-32B on two H100s (TP2), vLLM v1 defaults. Prefill fit `42.5 µs·P + 0.443 ns·P²` to a
 * published calibration curve (T(8192) ≈ 0.40 s); decode 9.7 ms + 38 ns per context token, fitted to
 * llm-d's measured ITL (11 ms at 3 QPS, 21–24 ms saturated); request path 16 µs per prompt token; 19,208 blocks
 * (307,328 tokens) as measured in llm-d's 73-capacity benchmark.
 * @public
 * @category Engine
 */
export const PROFILE_32B_H100: EngineProfile = {
  name: '32b-h100',
  description: 'Qwen3-32B, 2×H100 80GB (TP2), BF16, vLLM v1 defaults',
  model: 'Qwen/Qwen3-32B',
  cost: {
    stepOverheadMs: 2.2,
    // Recalibrated to llm-d's 73-capacity measurement (mean ITL 11 ms at 3 QPS, 21-24 ms
    // saturated): BLIS's 12.5 ms / 76 ns gave 14.9 ms at batch 1 and +82-100% at 3-10 QPS.
    weightReadMs: 7.5,
    perTokenMs: 0.0425,
    attentionPairNs: 0.443,
    perSeqMs: 0.0044,
    decodeContextNs: 38,
    cpuLoadPerBlockMs: 0.045,
    jitter: 0.03,
  },
  numGpuBlocks: 19_208,
  blockSize: 16,
  maxNumSeqs: 1024,
  maxNumBatchedTokens: 8192,
  maxModelLen: 131_072,
  // The gap between the prefill fit (0.38 s at 8,192 tokens) and the same requests measured
  // through the full request path (8192 / 15,928 tok/s = 0.514 s): ~16 µs per prompt token.
  requestPath: { fixedMs: 1, perPromptTokenUs: 16 },
};

/**
 * A deliberately small engine (8B timings, 2,048 blocks = 32K tokens) for tests and demos where
 * cache pressure should appear after a handful of requests.
 * @public
 * @category Engine
 */
export const PROFILE_TINY: EngineProfile = {
  ...PROFILE_8B_H100,
  name: 'tiny',
  description: '8B timings with a 32K-token KV cache and 64 sequences, for tests and demos',
  model: 'sim-tiny',
  numGpuBlocks: 2048,
  maxNumSeqs: 64,
  maxNumBatchedTokens: 2048,
  maxModelLen: 32_768,
};

/**
 * Built-in profiles by name. @public
 * @category Engine
 */
export const ENGINE_PROFILES: Readonly<Record<string, EngineProfile>> = {
  [PROFILE_8B_H100.name]: PROFILE_8B_H100,
  [PROFILE_32B_H100.name]: PROFILE_32B_H100,
  [PROFILE_TINY.name]: PROFILE_TINY,
};

/**
 * Looks up a built-in profile.
 * @throws SwitchyardError `CONFIG_INVALID` naming the unknown profile and the known ones
 * @public
 * @category Engine
 */
export function getProfile(name: string): EngineProfile {
  const p = ENGINE_PROFILES[name];
  if (p === undefined) {
    throw new SwitchyardError('CONFIG_INVALID', `profile: unknown engine profile "${name}" (known: ${Object.keys(ENGINE_PROFILES).join(', ')})`);
  }
  return p;
}
