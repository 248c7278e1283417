/**
 * The `switchyard` routing profile as an llm-d `EndpointPickerConfig` document (YAML). It is also
 * shipped as `profiles/switchyard.yaml` in this package (a test keeps the two identical).
 *
 * One scorer decides: `estimated-ttft-scorer` (core) estimates each pod's time to first token from
 * the prefill it would have to do (the prompt minus the prefix the approximate routing-history
 * index says the pod holds), the prefill queued ahead of it, its decode load and KV pressure; the
 * `max-score-picker` takes the lowest estimate. Pods within two estimated engine steps of the fastest
 * are taken in turn (least recently picked first), and an adapter the pod would have to load costs
 * `loraLoadMs`. Cache affinity is a prefill
 * saving that yields as soon as the warm pod's queue costs more than the saving, so hot prefixes
 * spread and cold ones go to the least-loaded pod. Load it with `@switchyard/prefix-index`'s
 * plugins registered (`prefixIndexPack()`); docs/scheduling.md explains the formula and parameters.
 * @public
 * @category Profiles
 */
export const SWITCHYARD_PROFILE_YAML = `# The switchyard routing profile (docs/scheduling.md, "The switchyard profile").
apiVersion: llm-d.ai/v1
kind: EndpointPickerConfig
plugins:
- type: approx-prefix-cache-producer
- type: estimated-ttft-scorer
  parameters:
    # Pods within two estimated engine steps of the fastest are taken in turn (least recently
    # picked first): the gateway cannot tell which of them will start this request's step first.
    spreadSteps: 2
    # Loading a LoRA adapter the pod does not hold costs about this long (ms).
    loraLoadMs: 200
- type: max-score-picker
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: estimated-ttft-scorer
    weight: 1
  - pluginRef: max-score-picker
`;

/**
 * Names of the routing profiles the CLIs accept with `--profile`: `switchyard` (this package's
 * {@link SWITCHYARD_PROFILE_YAML}) and `llm-d` (llm-d's defaults: an empty config).
 * @public
 * @category Profiles
 */
export const ROUTING_PROFILES = ['switchyard', 'llm-d'] as const;

/**
 * A routing profile name.
 * @public
 * @category Profiles
 */
export type RoutingProfileName = (typeof ROUTING_PROFILES)[number];

/**
 * The config document of a routing profile: the switchyard YAML, or undefined for `llm-d` (no
 * config means llm-d's defaults everywhere configs are loaded).
 * @public
 * @category Profiles
 */
export function routingProfileConfig(name: RoutingProfileName): string | undefined {
  return name === 'switchyard' ? SWITCHYARD_PROFILE_YAML : undefined;
}
