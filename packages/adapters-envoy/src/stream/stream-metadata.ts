import { DESTINATION_SERVED_HEADER, DESTINATION_SUBSET_KEY, ENVOY_LB_NAMESPACE, ROUTING_METADATA_NAMESPACE, SUBSET_HINT_NAMESPACE, type Decision, type Endpoint, type EndpointPool } from '@switchyard/core';
import type { WireMetadata, WireStruct } from '../wire/messages.js';
import { readAddressList, readString } from '../wire/struct.js';

/**
 * What the endpoint picker reads from a message's `metadata_context`.
 * @public
 */
export interface StreamMetadata {
  /** `envoy.lb.subset_hint` → `x-gateway-destination-endpoint-subset`, when present (may be empty). */
  readonly subsetHint: string[] | undefined;
  /** `envoy.lb` → `x-gateway-destination-endpoint-served`, when present. */
  readonly served: string | undefined;
  /** True when the message carries an `envoy.lb` namespace (with or without the served key). */
  readonly lbMetadata: boolean;
  /**
   * The `llm-d.routing` namespace as sent (an upstream ext_proc's routing inputs such as
   * `prefix_hashes`), converted to JSON only when a request is scheduled.
   */
  readonly routing: WireStruct | undefined;
}

const NO_METADATA: StreamMetadata = Object.freeze({ subsetHint: undefined, served: undefined, lbMetadata: false, routing: undefined });

/**
 * Reads the subset hint and the served endpoint from `metadata_context.filter_metadata`.
 * @public
 */
export function readStreamMetadata(meta: WireMetadata | undefined): StreamMetadata {
  const fm = meta?.filter_metadata;
  if (fm === undefined) return NO_METADATA;
  const lb = fm[ENVOY_LB_NAMESPACE];
  return {
    subsetHint: readAddressList(fm[SUBSET_HINT_NAMESPACE], DESTINATION_SUBSET_KEY),
    served: readString(lb, DESTINATION_SERVED_HEADER),
    lbMetadata: lb !== undefined,
    routing: fm[ROUTING_METADATA_NAMESPACE],
  };
}

/**
 * The endpoint that served a request: the one Envoy reported in `envoy.lb` metadata when it is
 * among the decision's targets or in the pool, else the decision's primary.
 * @public
 */
export function resolveServedEndpoint(served: string | undefined, decision: Decision, pool: EndpointPool | undefined): Endpoint {
  if (served === undefined || served === decision.primary.address) return decision.primary;
  for (const f of decision.fallbacks) if (f.address === served) return f;
  for (const e of pool?.list() ?? []) if (e.address === served) return e;
  return decision.primary;
}
