/*
 * Test-only stand-ins for plugin types other packages ship (prefix-index, flow-control), so the
 * loader's tests do not depend on those packages. Not exported from the package.
 */
import { z } from 'zod';
import { Attributes } from '../scheduling/attributes.js';
import type { PluginPack } from '../registry/plugin-pack.js';
import { definePlugin, type PluginDefinition } from '../registry/types.js';
import type { DataProducer, Scorer } from '../scheduling/plugins.js';

/** A prefix-cache-scorer reading `prefix-match-info`, as prefix-index's does. */
export const standInPrefixScorer = definePlugin({
  type: 'prefix-cache-scorer',
  consumes: [Attributes.prefixMatch.name],
  parameters: z.strictObject({ matchLengthWeight: z.number().min(0).max(1).default(0), prefixMatchInfoProducerName: z.string().optional() }),
  create: (_p, ctx): Scorer => ({
    type: 'prefix-cache-scorer',
    name: ctx.name,
    consumes: [Attributes.prefixMatch.name],
    score: (_c, req, eps) => {
      const m = req.attributes.get(Attributes.prefixMatch);
      return new Map(eps.map((e) => [e.id, m?.get(e.id) === undefined ? 0 : (m.get(e.id)?.matchBlocks ?? 0) / Math.max(1, m.get(e.id)?.totalBlocks ?? 1)]));
    },
  }),
});

/** The producer of `prefix-match-info`. */
export const standInPrefixProducer = definePlugin({
  type: 'approx-prefix-cache-producer',
  produces: [Attributes.prefixMatch.name],
  defaultProducerFor: [Attributes.prefixMatch.name],
  parameters: z.strictObject({ blockSizeTokens: z.number().int().positive().default(64) }),
  create: (_p, ctx): DataProducer => ({ type: 'approx-prefix-cache-producer', name: ctx.name, produces: [Attributes.prefixMatch.name], consumes: [], produce: () => undefined }),
});

const policy = (type: string): PluginDefinition => definePlugin({ type, parameters: z.strictObject({}), create: (_p, ctx) => ({ type, name: ctx.name }) });

/** Flow-control policy types, and flow-control's default types when its gate is on. */
export const standInFlowControlPack: PluginPack = {
  name: 'stand-in flow control',
  plugins: [policy('round-robin-fairness-policy'), policy('global-strict-fairness-policy'), policy('fcfs-ordering-policy'), policy('static-usage-limit-policy')],
  defaultTypes: (s) => {
    if (!s.featureGates.includes('flowControl')) return [];
    const detector = (s.flowControl?.['saturationDetector'] as { pluginRef?: unknown } | undefined)?.pluginRef;
    return ['fcfs-ordering-policy', 'global-strict-fairness-policy', 'static-usage-limit-policy', ...(detector === undefined ? ['utilization-detector'] : [])];
  },
};
