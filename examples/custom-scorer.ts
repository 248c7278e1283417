/**
 * A custom scorer, registered and configured exactly like a built-in one.
 *
 * `zone-affinity-scorer` prefers endpoints in the gateway's own availability zone (cross-zone
 * traffic costs money and latency). It reads the standard Kubernetes zone label, and the
 * config decides how much that preference weighs against load.
 */
import { z } from 'zod';
import { EndpointPicker, arrayScorer, createDefaultRegistry, definePlugin, loadConfig, type EndpointPool } from '@switchyard/core';

/** The well-known Kubernetes zone label. */
export const ZONE_LABEL = 'topology.kubernetes.io/zone';

/**
 * `zone-affinity-scorer`: 1 for endpoints in `zone`, `otherZoneScore` for the rest, and
 * `unknownZoneScore` for endpoints without the label.
 */
export const zoneAffinityScorerPlugin = definePlugin({
  type: 'zone-affinity-scorer',
  description: 'Prefers endpoints in the gateway’s zone.',
  // Strict: a typo in the config is reported as `plugins[i].parameters: unknown field "..."`.
  parameters: z.strictObject({
    zone: z.string().min(1),
    otherZoneScore: z.number().min(0).max(1).default(0),
    unknownZoneScore: z.number().min(0).max(1).default(0.5),
  }),
  // `arrayScorer` derives the map-returning `score()` from this array form, which the scheduler
  // prefers because it allocates nothing per endpoint.
  create: (p, ctx) =>
    arrayScorer('zone-affinity-scorer', ctx.name, (_ctx, _request, endpoints, out) => {
      for (let i = 0; i < endpoints.length; i++) {
        const zone = endpoints[i]?.labels[ZONE_LABEL];
        out[i] = zone === undefined ? p.unknownZoneScore : zone === p.zone ? 1 : p.otherZoneScore;
      }
    }),
});

/** The config a platform team would ship: llm-d's load scorers plus the zone preference. */
export const ZONE_AWARE_CONFIG = `
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: queue-scorer
- type: kv-cache-utilization-scorer
- type: zone-affinity-scorer
  parameters:
    zone: eu-west-1a
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: queue-scorer
    weight: 2
  - pluginRef: kv-cache-utilization-scorer
    weight: 2
  - pluginRef: zone-affinity-scorer
    weight: 3
`;

/** Builds a picker for `pool` that uses the custom scorer. */
export function createZoneAwarePicker(pool: EndpointPool, config: string = ZONE_AWARE_CONFIG): EndpointPicker {
  const registry = createDefaultRegistry().register(zoneAffinityScorerPlugin);
  return new EndpointPicker({ pool, config: loadConfig(config, { registry, pool }) });
}
