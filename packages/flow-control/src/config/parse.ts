import {
  SwitchyardError,
  createUtilizationDetector,
  isSaturationDetector,
  systemClock,
  type Clock,
  type Plugin,
  type SaturationDetector,
} from '@switchyard/core';
import { createGlobalStrictFairness, GLOBAL_STRICT_FAIRNESS } from '../policies/global-strict.js';
import { createFcfsOrdering, FCFS_ORDERING } from '../policies/ordering.js';
import { isFairnessPolicy, isOrderingPolicy, isUsageLimitPolicy, type FairnessPolicy, type OrderingPolicy, type UsageLimitPolicy } from '../policies/types.js';
import { createStaticUsageLimit, STATIC_USAGE_LIMIT } from '../policies/usage-limits.js';
import { flowControlSchema, type ParsedBand } from './schema.js';
import type { BandSettings, BandTemplate, FlowControlConfig } from './types.js';

/** llm-d defaults (`pkg/epp/flowcontrol`): per-band limits, TTL, GC intervals. */
export const DEFAULTS = {
  bandMaxRequests: 5000,
  bandMaxBytes: 1_000_000_000,
  requestTtlMs: 60_000,
  flowGcMs: 5 * 60_000,
  bandGcMs: 10 * 60_000,
  evictionReclaimTimeoutMs: 30_000,
  maxEvictionsPerCycle: 2,
} as const;

/**
 * Options of {@link parseFlowControlConfig}.
 * @public
 */
export interface ParseFlowControlOptions {
  /** Clock for the default `utilization-detector` when the block names no detector. */
  readonly clock?: Clock;
}

function path(segments: readonly PropertyKey[]): string {
  let out = 'flowControl';
  for (const s of segments) out += typeof s === 'number' ? `[${s}]` : `.${String(s)}`;
  return out;
}

/**
 * Validates llm-d's `flowControl` block and resolves its plugin references against the
 * instantiated `plugins` of the same config (by name). Missing references fall back to a plugin
 * of the default type's name when the config declares one, else to a default instance:
 * `global-strict-fairness-policy`, `fcfs-ordering-policy`, `static-usage-limit-policy`,
 * `utilization-detector`. Quantities (`"1k"`, `"10Gi"`) and durations (`"60s"`, `"500ms"`) are
 * parsed; band limits of 0 mean the llm-d defaults (5000 requests, 1e9 bytes), global limits of
 * 0 mean none.
 * @param raw - the `flowControl` value of the config document (undefined = all defaults)
 * @param plugins - the config's plugin instances by name
 * @throws SwitchyardError `CONFIG_INVALID` naming the offending path, e.g.
 *   `flowControl.priorityBands[1].maxRequests: expected a quantity such as "500", "1k" or "10Gi", got "lots"`
 * @public
 */
export function parseFlowControlConfig(
  raw: unknown,
  plugins: ReadonlyMap<string, Plugin> = new Map(),
  options: ParseFlowControlOptions = {},
): FlowControlConfig {
  const result = flowControlSchema.safeParse(raw ?? {});
  if (!result.success) {
    const messages = result.error.issues.slice(0, 5).map((i) => `${path(i.path)}: ${i.message}`);
    throw new SwitchyardError('CONFIG_INVALID', messages.join('; '));
  }
  const cfg = result.data;

  const ref = <T extends Plugin>(name: string | undefined, at: readonly PropertyKey[], guard: (p: Plugin | undefined) => p is T, what: string, fallback: () => T, defaultName: string): T => {
    if (name === undefined) {
      const declared = plugins.get(defaultName);
      return guard(declared) ? declared : fallback();
    }
    const plugin = plugins.get(name);
    if (plugin === undefined) throw new SwitchyardError('CONFIG_INVALID', `${path(at)}: no plugin named "${name}" in plugins`);
    if (!guard(plugin)) throw new SwitchyardError('CONFIG_INVALID', `${path(at)}: plugin "${name}" (type ${plugin.type}) is not ${what}`);
    return plugin;
  };

  // Default instances are shared by every band that does not name its own.
  let defaultFairness: FairnessPolicy | undefined;
  let defaultOrdering: OrderingPolicy | undefined;
  const template = (b: ParsedBand | undefined, at: readonly PropertyKey[]): BandTemplate => ({
    maxRequests: b?.maxRequests !== undefined && b.maxRequests > 0 ? b.maxRequests : DEFAULTS.bandMaxRequests,
    maxBytes: b?.maxBytes !== undefined && b.maxBytes > 0 ? b.maxBytes : DEFAULTS.bandMaxBytes,
    requestTtlMs: b?.switchyard?.requestTTL,
    fairness: ref(b?.fairnessPolicyRef, [...at, 'fairnessPolicyRef'], isFairnessPolicy, 'a fairness policy', () => (defaultFairness ??= createGlobalStrictFairness()), GLOBAL_STRICT_FAIRNESS),
    ordering: ref(b?.orderingPolicyRef, [...at, 'orderingPolicyRef'], isOrderingPolicy, 'an ordering policy', () => (defaultOrdering ??= createFcfsOrdering()), FCFS_ORDERING),
  });

  const bands: BandSettings[] = (cfg.priorityBands ?? [])
    .map((b, i) => ({
      ...template(b, ['priorityBands', i]),
      priority: b.priority,
      // Only limits the operator wrote are reserved: default fill-ins (1e9 bytes) larger than a small
      // global limit would otherwise lock every lower band out of the queue.
      reservedRequests: b.maxRequests ?? 0,
      reservedBytes: b.maxBytes ?? 0,
    }))
    .sort((a, b) => b.priority - a.priority);

  const defaultTtl = cfg.defaultRequestTTL ?? DEFAULTS.requestTtlMs;
  // llm-d: the no-endpoint TTL follows defaultRequestTTL when only that one is set.
  const noEndpointTtl = cfg.noEndpointRequestTTL ?? cfg.defaultRequestTTL ?? DEFAULTS.requestTtlMs;

  const usageLimitPolicy: UsageLimitPolicy = ref(cfg.usageLimitPolicyPluginRef, ['usageLimitPolicyPluginRef'], isUsageLimitPolicy, 'a usage limit policy', () => createStaticUsageLimit(), STATIC_USAGE_LIMIT);
  const detector: SaturationDetector = ref(
    cfg.saturationDetector?.pluginRef,
    ['saturationDetector', 'pluginRef'],
    isSaturationDetector,
    'a saturation detector',
    () => createUtilizationDetector({}, options.clock ?? systemClock),
    'utilization-detector',
  );

  const ext = cfg.switchyard ?? {};
  return {
    maxRequests: cfg.maxRequests ?? 0,
    maxBytes: cfg.maxBytes ?? 0,
    defaultRequestTtlMs: defaultTtl,
    noEndpointRequestTtlMs: noEndpointTtl,
    defaultBand: template(cfg.defaultPriorityBand, ['defaultPriorityBand']),
    defaultNegativeBand: template(cfg.defaultNegativePriorityBand ?? cfg.defaultPriorityBand, [
      cfg.defaultNegativePriorityBand === undefined ? 'defaultPriorityBand' : 'defaultNegativePriorityBand',
    ]),
    bands,
    usageLimitPolicy,
    detector,
    enableEviction: cfg.enableEviction ?? false,
    flowGcMs: ext.flowGCTimeout ?? DEFAULTS.flowGcMs,
    bandGcMs: ext.bandGCTimeout ?? DEFAULTS.bandGcMs,
    evictionReclaimTimeoutMs: ext.evictionReclaimTimeout ?? DEFAULTS.evictionReclaimTimeoutMs,
    maxEvictionsPerCycle: ext.maxEvictionsPerCycle ?? DEFAULTS.maxEvictionsPerCycle,
    admissionShares: ext.admissionShares ?? true,
  };
}
