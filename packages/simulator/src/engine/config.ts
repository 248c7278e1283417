import { SwitchyardError } from '@switchyard/core';
import { getProfile } from './profiles.js';
import type { CostModelParams, EngineConfig, EngineProfile } from './types.js';

/**
 * Engine settings: a profile plus overrides of any field.
 * @public
 * @category Engine
 */
export interface EngineConfigInput {
  /** Built-in profile name or a custom profile (default `8b-h100`). */
  readonly profile?: string | EngineProfile;
  /** Overrides of the profile's scheduler/cache settings and other engine options. */
  readonly overrides?: Partial<Omit<EngineConfig, 'cost' | 'profileName'>> & { readonly cost?: Partial<CostModelParams> };
}

const positiveInt = (v: number, field: string): number => {
  if (!Number.isInteger(v) || v < 1) throw new SwitchyardError('CONFIG_INVALID', `engine.${field}: expected a positive integer, got ${String(v)}`);
  return v;
};
const nonNegative = (v: number, field: string): number => {
  if (!Number.isFinite(v) || v < 0) throw new SwitchyardError('CONFIG_INVALID', `engine.${field}: expected a finite number >= 0, got ${String(v)}`);
  return v;
};

/**
 * Resolves a profile and overrides into a validated {@link EngineConfig}.
 * @throws SwitchyardError `CONFIG_INVALID` naming the bad field
 * @public
 * @category Engine
 */
export function resolveEngineConfig(input: EngineConfigInput = {}): EngineConfig {
  const profile = typeof input.profile === 'object' ? input.profile : getProfile(input.profile ?? '8b-h100');
  const o = input.overrides ?? {};
  const cost: CostModelParams = { ...profile.cost, ...(o.cost ?? {}) };
  for (const [k, v] of Object.entries(cost)) nonNegative(v as number, `cost.${k}`);
  const numCpuBlocks = o.numCpuBlocks ?? 0;
  if (!Number.isInteger(numCpuBlocks) || numCpuBlocks < 0) {
    throw new SwitchyardError('CONFIG_INVALID', `engine.numCpuBlocks: expected an integer >= 0, got ${String(numCpuBlocks)}`);
  }
  return {
    modelName: o.modelName ?? profile.model,
    blockSize: positiveInt(o.blockSize ?? profile.blockSize, 'blockSize'),
    numGpuBlocks: positiveInt(o.numGpuBlocks ?? profile.numGpuBlocks, 'numGpuBlocks'),
    numCpuBlocks,
    maxNumSeqs: positiveInt(o.maxNumSeqs ?? profile.maxNumSeqs, 'maxNumSeqs'),
    maxNumBatchedTokens: positiveInt(o.maxNumBatchedTokens ?? profile.maxNumBatchedTokens, 'maxNumBatchedTokens'),
    maxModelLen: positiveInt(o.maxModelLen ?? profile.maxModelLen, 'maxModelLen'),
    enablePrefixCaching: o.enablePrefixCaching ?? true,
    maxLoras: positiveInt(o.maxLoras ?? 1, 'maxLoras'),
    loraLoadMs: nonNegative(o.loraLoadMs ?? 50, 'loraLoadMs'),
    loraAdapters: [...(o.loraAdapters ?? [])],
    cost,
    seed: o.seed ?? 0,
    profileName: profile.name,
  };
}
