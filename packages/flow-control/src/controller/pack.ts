import type { PluginPack } from '@switchyard/core';
import { FlowControlMetrics } from '../metrics/flow-metrics.js';
import { flowControlPlugins } from '../policies/plugins.js';
import { FlowController } from './flow-controller.js';

/** The feature gate that turns flow control on (llm-d's name). */
const GATE = 'flowControl';

/**
 * Policy types a config gets when the `flowControl` gate is on and it declares none of that type,
 * as llm-d defaults them: FCFS ordering, global-strict fairness, the static usage limit.
 * @public
 * @category Controller
 */
export const FLOW_CONTROL_DEFAULT_TYPES = ['fcfs-ordering-policy', 'global-strict-fairness-policy', 'static-usage-limit-policy'] as const;

/**
 * Flow control as a plugin pack: the policy plugins, llm-d's default policies (and core's
 * `utilization-detector` when the block names no saturation detector) when the `flowControl`
 * gate is on, and a {@link FlowController} as the admission controller of such configs.
 * @example
 * ```ts
 * const { picker } = createPickerFromConfig({ config: yamlText, pool, packs: [flowControlPack] });
 * ```
 * @public
 * @category Controller
 */
export const flowControlPack: PluginPack = {
  name: '@switchyard/flow-control',
  plugins: flowControlPlugins,
  defaultTypes: ({ featureGates, flowControl }) => {
    if (!featureGates.includes(GATE)) return [];
    const detector = (flowControl?.['saturationDetector'] as { pluginRef?: unknown } | undefined)?.pluginRef;
    return [...FLOW_CONTROL_DEFAULT_TYPES, ...(detector === undefined ? ['utilization-detector'] : [])];
  },
  admission: ({ pool, clock, config, poolName, metrics }) => {
    if (!config.featureGates.includes(GATE)) return undefined;
    const flowMetrics = metrics === false ? false : new FlowControlMetrics({ registry: metrics, ...(poolName === undefined ? {} : { poolName }) });
    return new FlowController({ pool, clock, config: config.flowControl, plugins: config.plugins, metrics: flowMetrics });
  },
};
