/**
 * Every error Switchyard can answer a request with, and how it maps to HTTP. The statuses and
 * `x-llm-d-request-dropped-reason` values follow the llm-d error contract; codes marked "ours"
 * have no llm-d equivalent.
 * @public
 * @category Errors and the error contract
 */
export const ERROR_CONTRACT = {
  /** Malformed JSON, missing model, wrong field types, unknown path with an explicit parser list. */
  BAD_REQUEST: { status: 400, reason: undefined, type: 'invalid_request_error' },
  /** Body larger than the configured limit (ours). */
  PAYLOAD_TOO_LARGE: { status: 413, reason: undefined, type: 'invalid_request_error' },
  /** The request body did not arrive in time: read deadline or idle timeout (ours, gateway). */
  REQUEST_TIMEOUT: { status: 408, reason: undefined, type: 'invalid_request_error' },
  /** The gateway holds its limit of request-body bytes being read; try again (ours, gateway). */
  REQUEST_BUFFERS_FULL: { status: 503, reason: 'rejected-saturated', type: 'service_unavailable' },
  /** The gateway serves no pool for the requested model (ours, multi-model gateway). */
  MODEL_NOT_FOUND: { status: 404, reason: undefined, type: 'invalid_request_error' },
  /** `Prefer: if-available` and the primary holds no cached prefix. */
  PRECONDITION_FAILED: { status: 412, reason: undefined, type: 'invalid_request_error' },
  /** Queue capacity exceeded, or a profile's filters removed every endpoint. */
  REJECTED_SATURATED: { status: 429, reason: 'rejected-saturated', type: 'rate_limit_error' },
  /** Legacy admission shed a sheddable request (llm-d sends no reason header here). */
  REJECTED_SHEDDABLE: { status: 429, reason: undefined, type: 'rate_limit_error' },
  /** Queued past its TTL while the pool had endpoints. */
  REJECTED_TTL_EXPIRED: { status: 429, reason: 'rejected-ttl-expired', type: 'rate_limit_error' },
  /** Dispatched sheddable request revoked by flow-control eviction. */
  EVICTED: { status: 429, reason: 'evicted', type: 'rate_limit_error' },
  /** No ready endpoint (or none matching the subset hint), or queued past TTL with an empty pool. */
  REJECTED_NO_ENDPOINTS: { status: 503, reason: 'rejected-no-endpoints', type: 'service_unavailable' },
  /** The caller cancelled while the request was queued. */
  REJECTED_CONTEXT_CANCELLED: { status: 503, reason: 'rejected-context-cancelled', type: 'service_unavailable' },
  /** The gateway or flow controller is shutting down. */
  REJECTED_SHUTTING_DOWN: { status: 503, reason: 'rejected-shutting-down', type: 'service_unavailable' },
  /** An admission plugin denied the request. */
  ADMISSION_DENIED: { status: 500, reason: undefined, type: 'server_error' },
  /** The picker itself failed and the gateway is configured to fail closed (ours). */
  INTERNAL: { status: 500, reason: 'rejected-internal', type: 'server_error' },
  /** Every attempt to reach an upstream endpoint failed before any byte reached the client (ours). */
  UPSTREAM_UNAVAILABLE: { status: 502, reason: undefined, type: 'server_error' },
  /** The upstream endpoint did not answer in time (ours). */
  UPSTREAM_TIMEOUT: { status: 504, reason: undefined, type: 'server_error' },
  /** A configuration document is invalid; never sent to clients, thrown at load time (ours). */
  CONFIG_INVALID: { status: 500, reason: undefined, type: 'server_error' },
} as const satisfies Record<string, { status: number; reason: string | undefined; type: string }>;

/**
 * Stable error code; see {@link ERROR_CONTRACT}.
 * @public
 * @category Errors and the error contract
 */
export type ErrorCode = keyof typeof ERROR_CONTRACT;
