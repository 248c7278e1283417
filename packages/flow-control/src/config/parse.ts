import {
  SwitchyardError,
  createUtilizationDetector,
  optionRules,
  resolveOptions,
  isSaturationDetector,
  systemClock,
  type Clock,
  type OptionRules,
  type Plugin,
  type SaturationDetector,
} from '@switchyard/core';
import {
  createPriorityThenTimeEvictionOrder,
  createSheddableEvictionFilter,
  isEvictionFilter,
  isEvictionOrderPolicy,
  PRIORITY_THEN_TIME_EVICTION_ORDER,
  SHEDDABLE_EVICTION_FILTER,
} from '../policies/eviction.js';
import { createGlobalStrictFairness, GLOBAL_STRICT_FAIRNESS } from '../policies/global-strict.js';
import { createFcfsOrdering, FCFS_ORDERING } from '../policies/ordering.js';
import { isFairnessPolicy, isOrderingPolicy, isUsageLimitPolicy, type FairnessPolicy, type OrderingPolicy, type UsageLimitPolicy } from '../policies/types.js';
import { createStaticUsageLimit, STATIC_USAGE_LIMIT } from '../policies/usage-limits.js';
import { flowControlSchema, type ParsedBand } from './schema.js';
import type { BandSettings, BandTemplate, FlowControlConfig } from './types.js';

/**
 * The defaults of the resolved flow-control settings ({@link FlowControlConfig}), stated once:
 * llm-d's (`pkg/epp/flowcontrol`) for its keys, ours for the `switchyard` extension.
 * {@link parseFlowControlConfig} resolves the block's values against them (core's
 * `resolveOptions`); `band` holds the limits of a band that states none (a band limit of 0 also
 * means these).
 * @public
 * @category Config
 */
export const FLOW_CONTROL_DEFAULTS: {
  readonly maxRequests: number;
  readonly maxBytes: number;
  readonly defaultRequestTtlMs: number;
  readonly noEndpointRequestTtlMs: number;
  readonly enableEviction: boolean;
  readonly flowGcMs: number;
  readonly bandGcMs: number;
  readonly evictionReclaimTimeoutMs: number;
  readonly maxEvictionsPerCycle: number;
  readonly admissionShares: boolean;
  readonly band: { readonly maxRequests: number; readonly maxBytes: number };
} = Object.freeze({
  maxRequests: 0,
  maxBytes: 0,
  defaultRequestTtlMs: 60_000,
  noEndpointRequestTtlMs: 60_000,
  enableEviction: false,
  flowGcMs: 300_000,
  bandGcMs: 600_000,
  evictionReclaimTimeoutMs: 30_000,
  maxEvictionsPerCycle: 2,
  admissionShares: true,
  band: Object.freeze({ maxRequests: 5000, maxBytes: 1_000_000_000 }),
});

type FlowControlDefaults = typeof FLOW_CONTROL_DEFAULTS;

// The schema already parsed quantities and durations; these rules state the ranges once more at
// the one place the defaults are applied, so a value can never bypass them.
const RULES: OptionRules<FlowControlDefaults> = {
  maxRequests: optionRules.nonNegativeNumber,
  maxBytes: optionRules.nonNegativeNumber,
  defaultRequestTtlMs: optionRules.nonNegativeNumber,
  noEndpointRequestTtlMs: optionRules.nonNegativeNumber,
  enableEviction: optionRules.boolean,
  flowGcMs: optionRules.nonNegativeNumber,
  bandGcMs: optionRules.nonNegativeNumber,
  evictionReclaimTimeoutMs: optionRules.nonNegativeNumber,
  maxEvictionsPerCycle: optionRules.integerAtLeast(0),
  admissionShares: optionRules.boolean,
  band: optionRules.nested(FLOW_CONTROL_DEFAULTS.band, { maxRequests: optionRules.nonNegativeNumber, maxBytes: optionRules.nonNegativeNumber }),
};

/**
 * Options of {@link parseFlowControlConfig}.
 * @public
 * @category Config
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
 * `utilization-detector`, and for eviction `sheddable-eviction-filter` and
 * `priority-then-time-eviction-order-policy`. Quantities (`"1k"`, `"10Gi"`) and durations (`"60s"`, `"500ms"`) are
 * parsed; band limits of 0 mean the llm-d defaults (5000 requests, 1e9 bytes), global limits of
 * 0 mean none.
 * @param raw - the `flowControl` value of the config document (undefined = all defaults)
 * @param plugins - the config's plugin instances by name
 * @throws SwitchyardError `CONFIG_INVALID` naming the offending path, e.g.
 *   `flowControl.priorityBands[1].maxRequests: expected a quantity such as "500", "1k" or "10Gi", got "lots"`
 * @public
 * @category Config
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
  const ext = cfg.switchyard ?? {};
  const resolved = resolveOptions(
    'flowControl',
    {
      maxRequests: cfg.maxRequests,
      maxBytes: cfg.maxBytes,
      defaultRequestTtlMs: cfg.defaultRequestTTL,
      // llm-d: the no-endpoint TTL follows defaultRequestTTL when only that one is set.
      noEndpointRequestTtlMs: cfg.noEndpointRequestTTL ?? cfg.defaultRequestTTL,
      enableEviction: cfg.enableEviction,
      flowGcMs: ext.flowGCTimeout,
      bandGcMs: ext.bandGCTimeout,
      evictionReclaimTimeoutMs: ext.evictionReclaimTimeout,
      maxEvictionsPerCycle: ext.maxEvictionsPerCycle,
      admissionShares: ext.admissionShares,
    },
    FLOW_CONTROL_DEFAULTS,
    RULES,
  );

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
    maxRequests: b?.maxRequests !== undefined && b.maxRequests > 0 ? b.maxRequests : resolved.band.maxRequests,
    maxBytes: b?.maxBytes !== undefined && b.maxBytes > 0 ? b.maxBytes : resolved.band.maxBytes,
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


  const usageLimitPolicy: UsageLimitPolicy = ref(cfg.usageLimitPolicyPluginRef, ['usageLimitPolicyPluginRef'], isUsageLimitPolicy, 'a usage limit policy', () => createStaticUsageLimit(), STATIC_USAGE_LIMIT);
  const detector: SaturationDetector = ref(
    cfg.saturationDetector?.pluginRef,
    ['saturationDetector', 'pluginRef'],
    isSaturationDetector,
    'a saturation detector',
    () => createUtilizationDetector({}, options.clock ?? systemClock),
    'utilization-detector',
  );

  return {
    maxRequests: resolved.maxRequests,
    maxBytes: resolved.maxBytes,
    defaultRequestTtlMs: resolved.defaultRequestTtlMs,
    noEndpointRequestTtlMs: resolved.noEndpointRequestTtlMs,
    defaultBand: template(cfg.defaultPriorityBand, ['defaultPriorityBand']),
    defaultNegativeBand: template(cfg.defaultNegativePriorityBand ?? cfg.defaultPriorityBand, [
      cfg.defaultNegativePriorityBand === undefined ? 'defaultPriorityBand' : 'defaultNegativePriorityBand',
    ]),
    bands,
    usageLimitPolicy,
    detector,
    enableEviction: resolved.enableEviction,
    // llm-d builds its eviction plugins internally (no reference field); a config's instance of
    // either type, under its type's name, is used instead of the default one.
    evictionFilter: ref(undefined, [], isEvictionFilter, 'an eviction filter', () => createSheddableEvictionFilter(), SHEDDABLE_EVICTION_FILTER),
    evictionOrderPolicy: ref(undefined, [], isEvictionOrderPolicy, 'an eviction order policy', () => createPriorityThenTimeEvictionOrder(), PRIORITY_THEN_TIME_EVICTION_ORDER),
    flowGcMs: resolved.flowGcMs,
    bandGcMs: resolved.bandGcMs,
    evictionReclaimTimeoutMs: resolved.evictionReclaimTimeoutMs,
    maxEvictionsPerCycle: resolved.maxEvictionsPerCycle,
    admissionShares: resolved.admissionShares,
  };
}
