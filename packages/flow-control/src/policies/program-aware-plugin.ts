import { definePlugin } from '@switchyard/core';
import { z } from 'zod';
import { PROGRAM_AWARE_FAIRNESS, createProgramAwareFairness } from './program-aware.js';

/**
 * Parameters of `program-aware-fairness`, with llm-d's names, defaults and bounds.
 * @public
 * @category Policies
 */
export const programAwareFairnessParameters = z
  .strictObject({
    strategy: z.union([z.literal('las'), z.literal('')]).default('las'),
    evictionTtlSeconds: z.number().min(0).default(3600),
    evictionSweepSeconds: z.number().positive().default(300),
    lasWeightService: z.number().min(0).default(0.8),
    lasWeightHeadWait: z.number().min(0).default(0.2),
    lasHalfLifeSeconds: z.number().min(0).default(60),
  })
  .prefault({});

/**
 * `program-aware-fairness` plugin definition (least attained service across fairness ids). @public
 * @category Policies
 */
export const programAwareFairnessPlugin = definePlugin({
  type: PROGRAM_AWARE_FAIRNESS,
  parameters: programAwareFairnessParameters,
  create: (p, ctx) => createProgramAwareFairness(ctx.clock, { ...p, name: ctx.name, metrics: ctx.metrics }),
  description: 'Least attained service across programs (fairness ids), decayed by a half-life.',
});
