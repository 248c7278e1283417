import { createGatewayFromConfig, type Gateway } from '@switchyard/express';
import { SWITCHYARD_PROFILE_YAML } from '@switchyard/prefix-index';
import { roundRobinPickerPlugin } from '@switchyard/simulator';

/** A policy the demo compares. */
export interface DemoPolicy {
  /** Short name (table column, report). */
  readonly name: string;
  /** What it is. */
  readonly description: string;
  /** Starts a gateway with this policy in front of `endpoints`. */
  start(endpoints: readonly string[]): Promise<Gateway>;
}

/** Switchyard with its own `switchyard` profile (lowest estimated TTFT; docs/scheduling.md). */
export const switchyardPolicy: DemoPolicy = {
  name: 'switchyard',
  description: 'Switchyard gateway with the switchyard profile: estimated-ttft-scorer (uncached prefill, queued prefill, decode load, KV pressure) over the approximate prefix index, max-score-picker with random ties.',
  start: (endpoints) => createGatewayFromConfig({ endpoints, config: SWITCHYARD_PROFILE_YAML }),
};

/** Switchyard with llm-d's default EndpointPickerConfig (queue 2, kv-cache 2, prefix-cache 3). */
export const defaultPolicy: DemoPolicy = {
  name: 'llm-d default',
  description: "Switchyard gateway with llm-d's default EndpointPickerConfig: queue-scorer 2, kv-cache-utilization-scorer 2, prefix-cache-scorer 3, max-score-picker.",
  start: (endpoints) => createGatewayFromConfig({ endpoints }),
};

/** The same gateway with a round-robin picker and no scorers: what a plain load balancer does. */
export const roundRobinPolicy: DemoPolicy = {
  name: 'round-robin',
  description: 'The same gateway with a round-robin picker and no scorers (a plain load balancer).',
  start: (endpoints) =>
    createGatewayFromConfig({
      endpoints,
      prefixIndex: false,
      plugins: [roundRobinPickerPlugin],
      config: {
        apiVersion: 'llm-d.ai/v1alpha1',
        kind: 'EndpointPickerConfig',
        plugins: [{ type: 'round-robin-picker' }],
        schedulingProfiles: [{ name: 'default', plugins: [{ pluginRef: 'round-robin-picker' }] }],
      },
    }),
};
