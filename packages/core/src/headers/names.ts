/**
 * Destination chosen by the picker: `ip:port[,fallback,...]`. @public
 * @category Header contract
 */
export const DESTINATION_HEADER = 'x-gateway-destination-endpoint';
/**
 * Endpoint that actually served the request (set by the gateway / Envoy). @public
 * @category Header contract
 */
export const DESTINATION_SERVED_HEADER = 'x-gateway-destination-endpoint-served';
/**
 * Subset hint key inside `envoy.lb` metadata: allowed `ip:port` list. @public
 * @category Header contract
 */
export const DESTINATION_SUBSET_KEY = 'x-gateway-destination-endpoint-subset';
/**
 * Per-endpoint scores key inside `envoy.lb` metadata. @public
 * @category Header contract
 */
export const DESTINATION_SCORES_KEY = 'x-gateway-destination-endpoint-scores';
/**
 * Dynamic metadata namespace Envoy's load balancer reads. @public
 * @category Header contract
 */
export const ENVOY_LB_NAMESPACE = 'envoy.lb';
/**
 * Subset hint metadata namespace written by the gateway. @public
 * @category Header contract
 */
export const SUBSET_HINT_NAMESPACE = 'envoy.lb.subset_hint';
/**
 * Request metadata namespace an upstream ext_proc (llm-d's inference payload processor) writes
 * routing inputs into, e.g. `prefix_hashes`; the EPP needs `forwarding_namespaces` to see it.
 * @public
 * @category Header contract
 */
export const ROUTING_METADATA_NAMESPACE = 'llm-d.routing';
/**
 * Why a request was dropped (error contract). @public
 * @category Header contract
 */
export const DROPPED_REASON_HEADER = 'x-llm-d-request-dropped-reason';
/**
 * Prefill endpoint for disaggregated serving, consumed by the decode pod's sidecar. @public
 * @category Header contract
 */
export const PREFILLER_HEADER = 'x-prefiller-host-port';
/**
 * Encoder endpoints for disaggregated serving. @public
 * @category Header contract
 */
export const ENCODERS_HEADER = 'x-encoder-hosts-ports';
/**
 * Data-parallel rank (`ip:port`) a request is for when it is sent to the pod's primary port (llm-d's
 * `data-parallel-profile-handler`); the pod's sidecar forwards it there. @public
 * @category Header contract
 */
export const DATA_PARALLEL_HEADER = 'x-data-parallel-host-port';
/**
 * Response header `destination-endpoint-served-verifier` sets to the endpoint the data plane
 * reports as served (GAIE conformance tests read it). @public
 * @category Header contract
 */
export const CONFORMANCE_SERVED_ENDPOINT_HEADER = 'x-conformance-test-served-endpoint';
/**
 * Session token of the session-affinity scorer (base64 endpoint id). @public
 * @category Header contract
 */
export const SESSION_TOKEN_HEADER = 'x-session-token';
/**
 * Session id of the server-side session-affinity strategy. @public
 * @category Header contract
 */
export const SESSION_ID_HEADER = 'x-session-id';
/**
 * Request id; generated when absent. @public
 * @category Header contract
 */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * Classification headers a client (or a trusted upstream) may send. Each has a canonical
 * `x-llm-d-*` name and a deprecated alias; the canonical name wins even when its value is empty.
 * @public
 * @category Header contract
 */
export const CLASSIFICATION_HEADERS = {
  fairnessId: { canonical: 'x-llm-d-inference-fairness-id', alias: 'x-gateway-inference-fairness-id' },
  objective: { canonical: 'x-llm-d-inference-objective', alias: 'x-gateway-inference-objective' },
  modelRewrite: { canonical: 'x-llm-d-model-name-rewrite', alias: 'x-gateway-model-name-rewrite' },
  sloTtftMs: { canonical: 'x-llm-d-slo-ttft-ms', alias: 'x-slo-ttft-ms' },
  sloTpotMs: { canonical: 'x-llm-d-slo-tpot-ms', alias: 'x-slo-tpot-ms' },
  videoFps: { canonical: 'x-llm-d-video-fps', alias: undefined },
  videoDurationSeconds: { canonical: 'x-llm-d-video-duration-seconds', alias: undefined },
  videoResolution: { canonical: 'x-llm-d-video-resolution', alias: undefined },
} as const;

/**
 * Name of a classification header field. @public
 * @category Header contract
 */
export type ClassificationField = keyof typeof CLASSIFICATION_HEADERS;

/**
 * Every header a client must not be able to set on a forwarded request: classification headers
 * and their aliases, destination headers and the dropped-reason header.
 * @public
 * @category Header contract
 */
export const CONTROL_HEADERS: readonly string[] = [
  ...Object.values(CLASSIFICATION_HEADERS).flatMap((h) => (h.alias === undefined ? [h.canonical] : [h.canonical, h.alias])),
  DESTINATION_HEADER,
  DESTINATION_SERVED_HEADER,
  DROPPED_REASON_HEADER,
  PREFILLER_HEADER,
  ENCODERS_HEADER,
  DATA_PARALLEL_HEADER,
];
