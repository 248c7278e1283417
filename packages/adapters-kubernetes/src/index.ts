/**
 * `@switchyard/kubernetes`: InferencePool discovery (pods, ports, readiness), leader election on a
 * Lease, InferenceObjective and model-mapping watches, and the Kubernetes flags of both CLIs.
 *
 * The root export lists its public names one by one (no `export *`); selector, pod and port
 * helpers stay inside the package.
 * @packageDocumentation
 */
// Resources
export type { LabelSelector, LabelRequirement } from './selectors/label-selector.js';
export type { ObjectMeta, KubeObject, PodObject, InferencePoolObject, ConfigMapObject, LeaseObject } from './resources/types.js';

// Discovery
export { ACTIVE_PORTS_ANNOTATION, ACTIVE_PORTS_ANNOTATION_LEGACY } from './discovery/pod-endpoints.js';
export type { PoolSpec } from './discovery/pod-endpoints.js';
export { poolSpecFromObject, INFERENCE_POOL_GROUP } from './discovery/pool-spec.js';
export { EndpointJoiner, httpEndpointProbe } from './discovery/endpoint-joiner.js';
export type { EndpointJoinerOptions, EndpointProbe } from './discovery/endpoint-joiner.js';
export { PoolDiscovery } from './discovery/pool-discovery.js';
export type { PoolDiscoveryOptions, PoolDiscoveryEvents, PoolSource } from './discovery/pool-discovery.js';

// API client
export { createKubeClient } from './client/kube-client.js';
export type { KubeClient, KubeClientOptions, ListResult, ListWatchLike } from './client/kube-client.js';
export { KubeApiError } from './client/kube-api-error.js';
export { ResourceWatcher } from './client/resource-watcher.js';
export type { ResourceWatcherOptions, ResourceWatcherEvents } from './client/resource-watcher.js';

// Metrics
export { KubernetesMetrics } from './metrics/kubernetes-metrics.js';
export type { KubernetesMetricsOptions } from './metrics/kubernetes-metrics.js';

// Resource watches
export { ObjectiveWatch, OBJECTIVES_GROUP, OBJECTIVES_GROUP_LEGACY } from './resources/objective-watch.js';
export type { ObjectiveWatchOptions } from './resources/objective-watch.js';

// Leader election
export { LeaseElector, eppLeaseName } from './leader/lease-elector.js';
export type { LeaseElectorOptions, LeaseElectorEvents } from './leader/lease-elector.js';

// Startup
export { startKubernetes } from './start/start-kubernetes.js';
export type { KubernetesOptions, RunningKubernetes, RunningKubernetesEvents } from './start/start-kubernetes.js';

// CLI flags
export { parseKubernetesFlags } from './cli/kubernetes-flags.js';
export { KUBERNETES_FLAGS, kubernetesCliOptions, kubernetesCliUsage, kubernetesFlagTable } from './cli/flag-definitions.js';
export type { KubernetesFlag, KubernetesCli } from './cli/flag-definitions.js';
export type { KubernetesCliFlags, KubernetesCliValues } from './cli/kubernetes-flags.js';
export { kubernetesCliDiscovery, kubernetesFlagValues, wantsKubernetes } from './cli/kubernetes-cli.js';
export type { KubernetesCliDiscovery, KubernetesCliTarget } from './cli/kubernetes-cli.js';

// Resource watches
export { BaseModelMap, parseModelMapping, IPP_MANAGED_LABEL, BASE_MODEL_HEADER } from './resources/base-model-map.js';
export type { ModelMapping, BaseModelMapEvents } from './resources/base-model-map.js';
export { ModelMappingWatch } from './resources/model-mapping-watch.js';
export type { ModelMappingWatchOptions } from './resources/model-mapping-watch.js';
export { baseModelHeaderPack, BASE_MODEL_HEADER_PLUGIN } from './resources/base-model-header.js';
