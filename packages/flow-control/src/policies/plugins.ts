import { definePlugin, type PluginDefinition } from '@switchyard/core';
import { z } from 'zod';
import { GLOBAL_STRICT_FAIRNESS, createGlobalStrictFairness } from './global-strict.js';
import { EDF_ORDERING, FCFS_ORDERING, SLO_DEADLINE_ORDERING, createEdfOrdering, createFcfsOrdering, createSloDeadlineOrdering } from './ordering.js';
import { ROUND_ROBIN_FAIRNESS, createRoundRobinFairness } from './round-robin.js';
import { PRIORITY_HOLDBACK, STATIC_USAGE_LIMIT, createPriorityHoldback, createStaticUsageLimit, type PriorityHoldbackOptions } from './usage-limits.js';
import { WEIGHTED_DRR_FAIRNESS, createWeightedDrrFairness } from './weighted-drr.js';
import { SOFT_REFLECTIVE_CEILING, createSoftReflectiveCeiling } from './soft-reflective-ceiling.js';
import { programAwareFairnessPlugin } from './program-aware-plugin.js';
import { PRIORITY_THEN_TIME_EVICTION_ORDER, SHEDDABLE_EVICTION_FILTER, createPriorityThenTimeEvictionOrder, createSheddableEvictionFilter } from './eviction.js';

const noParams = z.strictObject({}).prefault({});

/**
 * `global-strict-fairness-policy` plugin definition. @public
 * @category Policies
 */
export const globalStrictFairnessPolicyPlugin = definePlugin({
  type: GLOBAL_STRICT_FAIRNESS,
  parameters: noParams,
  create: (_p, ctx) => createGlobalStrictFairness(ctx.name),
  description: 'Dispatches the best head across all flows of a band (one logical queue).',
});

/**
 * `round-robin-fairness-policy` plugin definition. @public
 * @category Policies
 */
export const roundRobinFairnessPolicyPlugin = definePlugin({
  type: ROUND_ROBIN_FAIRNESS,
  parameters: noParams,
  create: (_p, ctx) => createRoundRobinFairness(ctx.name),
  description: 'One dispatch per non-empty flow in turn.',
});

/**
 * `weighted-drr-fairness-policy` plugin definition (Switchyard's own). @public
 * @category Policies
 */
export const weightedDrrFairnessPolicyPlugin = definePlugin({
  type: WEIGHTED_DRR_FAIRNESS,
  parameters: z
    .strictObject({
      quantumTokens: z.number().positive().default(2048),
      weights: z.record(z.string(), z.number().positive()).default({}),
      defaultWeight: z.number().positive().default(1),
    })
    .prefault({}),
  create: (p, ctx) => createWeightedDrrFairness({ ...p, name: ctx.name }),
  description: 'Weighted deficit round robin charged in estimated (then actual) tokens.',
});

/**
 * `fcfs-ordering-policy` plugin definition. @public
 * @category Policies
 */
export const fcfsOrderingPolicyPlugin = definePlugin({
  type: FCFS_ORDERING,
  parameters: noParams,
  create: (_p, ctx) => createFcfsOrdering(ctx.name),
  description: 'Earliest enqueue first.',
});

/**
 * `edf-ordering-policy` plugin definition. @public
 * @category Policies
 */
export const edfOrderingPolicyPlugin = definePlugin({
  type: EDF_ORDERING,
  parameters: noParams,
  create: (_p, ctx) => createEdfOrdering(ctx.name),
  description: 'Earliest expiry (enqueue + effective TTL) first.',
});

/**
 * `slo-deadline-ordering-policy` plugin definition. @public
 * @category Policies
 */
export const sloDeadlineOrderingPolicyPlugin = definePlugin({
  type: SLO_DEADLINE_ORDERING,
  parameters: noParams,
  create: (_p, ctx) => createSloDeadlineOrdering(ctx.name),
  description: 'Earliest received + x-llm-d-slo-ttft-ms first; no SLO last.',
});

/**
 * `static-usage-limit-policy` plugin definition. @public
 * @category Policies
 */
export const staticUsageLimitPolicyPlugin = definePlugin({
  type: STATIC_USAGE_LIMIT,
  parameters: z.strictObject({ threshold: z.number().min(0).default(1) }).prefault({}),
  create: (p, ctx) => createStaticUsageLimit(p.threshold, ctx.name),
  description: 'One saturation ceiling for every band (default 1.0).',
});

const ceilingValue = z.number().min(0).max(1);

const holdbackParams = z
  .strictObject({
    shape: z.literal('linear').optional(),
    domain: z.enum(['rank', 'value', 'explicit']).optional(),
    /** Older llm-d spelling of `domain`: stepwise-spread = rank, linear-proportional = value. */
    strategy: z.enum(['stepwise-spread', 'linear-proportional']).optional(),
    minCeiling: z.number().optional(),
    maxCeiling: z.number().optional(),
    ceilings: z.record(z.string().regex(/^-?\d+$/, 'keys must be integer priorities'), ceilingValue).optional(),
  })
  .superRefine((p, ctx) => {
    const issue = (path: string, message: string): void => { ctx.addIssue({ code: 'custom', path: [path], message }); };
    if (p.domain !== undefined && p.strategy !== undefined) issue('strategy', 'set either domain or strategy, not both');
    if (p.domain === 'explicit') {
      if (p.ceilings === undefined || Object.keys(p.ceilings).length === 0) issue('ceilings', 'required when domain is "explicit"');
      for (const key of ['shape', 'minCeiling', 'maxCeiling'] as const) {
        if (p[key] !== undefined) issue(key, 'must not be set when domain is "explicit"');
      }
      const entries = Object.entries(p.ceilings ?? {}).sort((a, b) => Number(b[0]) - Number(a[0]));
      for (let i = 1; i < entries.length; i++) {
        const [prio, c] = entries[i] as [string, number];
        const [higher, ch] = entries[i - 1] as [string, number];
        if (c > ch) issue('ceilings', `must not increase as priority decreases: ${prio} has ${c}, above ${higher}'s ${ch}`);
      }
      return;
    }
    if (p.ceilings !== undefined) issue('ceilings', 'only allowed when domain is "explicit"');
    if (p.minCeiling === undefined) issue('minCeiling', 'required (ceiling of the lowest priority, in [0, 1))');
    else if (!(p.minCeiling >= 0 && p.minCeiling < 1)) issue('minCeiling', `must be in [0, 1), got ${p.minCeiling}`);
    const max = p.maxCeiling ?? 1;
    if (!(max > 0 && max <= 1)) issue('maxCeiling', `must be in (0, 1], got ${max}`);
    if (p.minCeiling !== undefined && p.minCeiling >= max) issue('minCeiling', `must be below maxCeiling (${max})`);
  })
  .transform((p): PriorityHoldbackOptions => {
    if (p.domain === 'explicit') {
      return { domain: 'explicit', ceilings: Object.fromEntries(Object.entries(p.ceilings ?? {}).map(([k, v]) => [Number(k), v])) };
    }
    const domain = p.domain ?? (p.strategy === 'linear-proportional' ? 'value' : 'rank');
    return { domain, minCeiling: p.minCeiling ?? 0, maxCeiling: p.maxCeiling ?? 1 };
  });

/**
 * `priority-holdback-policy` plugin definition (llm-d parameters: domain, minCeiling, maxCeiling, ceilings). @public
 * @category Policies
 */
export const priorityHoldbackPolicyPlugin = definePlugin({
  type: PRIORITY_HOLDBACK,
  parameters: holdbackParams,
  create: (p, ctx) => createPriorityHoldback({ ...p, name: ctx.name }),
  description: 'Lower bands get lower saturation ceilings, holding headroom back for higher ones.',
});

/**
 * `soft-reflective-ceiling-policy` plugin definition (takes no parameters, as in llm-d). @public
 * @category Policies
 */
export const softReflectiveCeilingPolicyPlugin = definePlugin({
  type: SOFT_REFLECTIVE_CEILING,
  parameters: noParams,
  create: (_p, ctx) => createSoftReflectiveCeiling(ctx.name),
  description: 'Lower bands close as saturation passes their reflective ceiling, with a duty-cycled trickle.',
});

/**
 * `sheddable-eviction-filter` plugin definition (no parameters, as in llm-d; the default eviction filter). @public
 * @category Policies
 */
export const sheddableEvictionFilterPlugin = definePlugin({
  type: SHEDDABLE_EVICTION_FILTER,
  parameters: noParams,
  create: (_p, ctx) => createSheddableEvictionFilter(ctx.name),
  description: 'With flowControl.enableEviction: only sheddable (priority < 0) in-flight requests may be evicted.',
});

/**
 * `priority-then-time-eviction-order-policy` plugin definition (no parameters, as in llm-d; the default eviction order). @public
 * @category Policies
 */
export const priorityThenTimeEvictionOrderPolicyPlugin = definePlugin({
  type: PRIORITY_THEN_TIME_EVICTION_ORDER,
  parameters: noParams,
  create: (_p, ctx) => createPriorityThenTimeEvictionOrder(ctx.name),
  description: 'With flowControl.enableEviction: evict the lowest priority first, the most recently dispatched first within one.',
});

/**
 * Every flow-control policy plugin definition. Prefer registering `flowControlPack`, which also
 * gives `flowControl`-gated configs llm-d's default policies.
 * @public
 * @category Policies
 */
export const flowControlPlugins: readonly PluginDefinition[] = [
  globalStrictFairnessPolicyPlugin,
  roundRobinFairnessPolicyPlugin,
  weightedDrrFairnessPolicyPlugin,
  fcfsOrderingPolicyPlugin,
  edfOrderingPolicyPlugin,
  sloDeadlineOrderingPolicyPlugin,
  staticUsageLimitPolicyPlugin,
  priorityHoldbackPolicyPlugin,
  softReflectiveCeilingPolicyPlugin,
  programAwareFairnessPlugin,
  sheddableEvictionFilterPlugin,
  priorityThenTimeEvictionOrderPolicyPlugin,
] as readonly PluginDefinition[];
