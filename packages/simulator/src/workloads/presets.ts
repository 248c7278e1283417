import { SwitchyardError } from '@switchyard/core';
import type { EngineConfigInput } from '../engine/config.js';
import { getProfile } from '../engine/profiles.js';
import { agenticWorkload } from './agentic.js';
import { estimateCapacity } from './capacity.js';
import { loraMixWorkload } from './lora-mix.js';
import { traceWorkload } from './trace.js';
import { DEFAULT_TENANTS, multiTenantWorkload } from './multi-tenant.js';
import { multiTurnWorkload } from './multi-turn.js';
import { sharedPrefixWorkload } from './shared-prefix.js';
import type { Workload } from './types.js';

/**
 * Names of the built-in workload presets (plus `trace:FILE`). @public
 * @category Workloads
 */
export const WORKLOAD_PRESETS = ['shared-prefix', 'agentic', 'multi-turn', 'multi-tenant', 'lora-mix'] as const;

/**
 * Options of {@link createWorkloadPreset}.
 * @public
 * @category Workloads
 */
export interface PresetOptions {
  /** Pods of the fleet the preset is sized for (default 8). */
  readonly pods?: number;
  /** Arrival rate: requests/s for open-loop presets, sessions/s for agentic and multi-turn (default: ≈70% of capacity). */
  readonly rate?: number;
  /** Arrivals stop after this long, ms (preset default otherwise). */
  readonly durationMs?: number;
  /** Seed (default 1). */
  readonly seed?: number;
  /** Token scale of the agentic preset (default 0.05). */
  readonly scale?: number;
  /** Engine profile (preset default otherwise). */
  readonly profile?: string;
  /** Text of a `trace:FILE` workload (Mooncake JSONL or Azure CSV). */
  readonly traceText?: string;
  /** Trace replay speed-up (default 1). */
  readonly speedup?: number;
  /** Zipf exponent of the shared-prefix groups' popularity (default 0: uniform rounds). */
  readonly zipf?: number;
}

/**
 * A ready-to-run workload with the fleet it is meant for.
 * @public
 * @category Workloads
 */
export interface WorkloadPreset {
  /** The workload. */
  readonly workload: Workload;
  /** Engine profile. */
  readonly profile: string;
  /** Engine overrides (e.g. LoRA adapters). */
  readonly overrides: EngineConfigInput['overrides'];
  /** Rate used. */
  readonly rate: number;
  /** Estimated fleet capacity for the workload (same unit as `rate`), when known. */
  readonly capacity: number | undefined;
}

/**
 * Builds a named workload preset sized for `pods`. `shared-prefix` reproduces llm-d's
 * "73-capacity" benchmark shape (Qwen3-32B on 2×H100 per pod; 150 groups per 8 pods of a 6 000-token
 * system prompt and 5 questions of 1 200 tokens, 1 000 output tokens; the groups fill ≈73% of
 * the fleet's KV cache) at ≈70% of the fleet's estimated capacity ({@link estimateCapacity}).
 * @throws SwitchyardError `CONFIG_INVALID` for an unknown name or a trace without text
 * @public
 * @category Workloads
 */
export function createWorkloadPreset(name: string, options: PresetOptions = {}): WorkloadPreset {
  const pods = options.pods ?? 8;
  const seed = options.seed ?? 1;
  const dur = (ms: number): number => options.durationMs ?? ms;
  if (name.startsWith('trace:')) {
    if (options.traceText === undefined) throw new SwitchyardError('CONFIG_INVALID', `workload ${name}: trace text not provided`);
    const workload = traceWorkload(options.traceText, { speedup: options.speedup ?? 1, ...(options.durationMs === undefined ? {} : { durationMs: options.durationMs }), name, seed });
    return { workload, profile: options.profile ?? '8b-h100', overrides: {}, rate: 0, capacity: undefined };
  }
  switch (name) {
    case 'shared-prefix': {
      const profile = options.profile ?? '32b-h100';
      const numGroups = Math.max(1, Math.round((150 * pods) / 8));
      const shape = { promptTokens: 7200, outputTokens: 1000, sharedTokens: 6000, sharedSetsPerPod: numGroups / pods };
      const capacity = estimateCapacity(getProfile(profile), pods, shape);
      const rate = options.rate ?? Math.round(capacity * 0.7 * 10) / 10;
      const workload = sharedPrefixWorkload({ numGroups, numPromptsPerGroup: 5, systemPromptLen: 6000, questionLen: 1200, outputLen: 1000, rate, durationMs: dur(180_000), seed, zipf: options.zipf ?? 0 });
      return { workload, profile, overrides: {}, rate, capacity };
    }
    case 'agentic': {
      const rate = options.rate ?? 0.05 * pods;
      const workload = agenticWorkload({ scale: options.scale ?? 0.05, sessionRate: rate, durationMs: dur(120_000), medianTurns: 30, seed });
      return { workload, profile: options.profile ?? '8b-h100', overrides: {}, rate, capacity: undefined };
    }
    case 'multi-turn': {
      const rate = options.rate ?? 0.5 * pods;
      const conversations = Math.max(1, Math.round((rate * dur(120_000)) / 1000));
      const workload = multiTurnWorkload({ conversations, conversationRate: rate, seed });
      return { workload, profile: options.profile ?? '8b-h100', overrides: {}, rate, capacity: undefined };
    }
    case 'multi-tenant': {
      const profile = options.profile ?? '8b-h100';
      const capacity = estimateCapacity(getProfile(profile), pods, { promptTokens: 1600, outputTokens: 200 });
      // Mean request rate of the default mix, bursts included.
      const base = DEFAULT_TENANTS.reduce((a, t) => a + t.rate * (t.burst === undefined ? 1 : 1 + (t.burst.factor - 1) * (t.burst.onMs / t.burst.periodMs)), 0);
      const rate = options.rate ?? Math.round(capacity * 0.7 * 10) / 10;
      const workload = multiTenantWorkload({ rateScale: rate / base, durationMs: dur(120_000), seed });
      return { workload, profile, overrides: {}, rate, capacity };
    }
    case 'lora-mix': {
      const profile = options.profile ?? '8b-h100';
      const adapters = Array.from({ length: 8 }, (_, i) => `lora-${i}`);
      const capacity = estimateCapacity(getProfile(profile), pods, { promptTokens: 1280, outputTokens: 128 });
      const rate = options.rate ?? Math.round(capacity * 0.7 * 10) / 10;
      const workload = loraMixWorkload({ adapters, rate, durationMs: dur(120_000), seed });
      return { workload, profile, overrides: { loraAdapters: adapters, maxLoras: 4, loraLoadMs: 200 }, rate, capacity };
    }
    default:
      throw new SwitchyardError('CONFIG_INVALID', `workload: unknown workload "${name}" (presets: ${WORKLOAD_PRESETS.join(', ')}, or trace:FILE)`);
  }
}
