import { DESTINATION_HEADER, DESTINATION_SCORES_KEY, ENVOY_LB_NAMESPACE, REQUEST_ID_HEADER, isControlHeader, type Endpoint } from '@switchyard/core';
import { setHeader } from '../wire/headers.js';
import type { ProcessingResponse, WireHeaderValueOption, WireStruct, WireValue } from '../wire/messages.js';
import { headersResponse } from '../wire/responses.js';
import { namespaceStruct } from '../wire/struct.js';

/**
 * Headers never echoed back: hop-by-hop headers, ones Envoy ignores edits of (`host`,
 * `x-envoy-*`), and `content-length`, which is recomputed for the possibly rewritten body.
 */
const NOT_ECHOED = new Set(['content-length', 'host', 'connection', 'keep-alive', 'transfer-encoding', 'te', 'upgrade', 'proxy-connection']);

/**
 * Everything the request header reply carries.
 * @public
 */
export interface ForwardPlan {
  /** Primary first, then fallbacks. */
  readonly targets: readonly Endpoint[];
  /** Extra headers from the decision (prefiller, session token...). */
  readonly decisionHeaders: Readonly<Record<string, string>>;
  /** The client's headers as received. */
  readonly requestHeaders: Readonly<Record<string, string>>;
  /** Bytes of the body that will be forwarded (for Content-Length); undefined for header-only requests. */
  readonly bodyLength: number | undefined;
  /** Request id to add when the client sent none. */
  readonly requestId: string | undefined;
  /** Echo the client's non-control headers. */
  readonly echo: boolean;
  /**
   * Total score of every candidate of the primary profile by `ip:port`, for the
   * `x-gateway-destination-endpoint-scores` metadata key (llm-d's `--emit-endpoint-scores`);
   * undefined leaves the key out.
   */
  readonly scores?: ReadonlyMap<string, number> | undefined;
}

/** `envoy.lb` metadata: the destination, and the candidates' scores when asked for. */
function lbMetadata(destination: string, scores: ReadonlyMap<string, number> | undefined): WireStruct {
  const base = namespaceStruct(ENVOY_LB_NAMESPACE, { [DESTINATION_HEADER]: destination });
  if (scores === undefined) return base;
  const byAddress: Record<string, WireValue> = {};
  for (const [address, score] of scores) byAddress[address] = { numberValue: score };
  const lb = base.fields?.[ENVOY_LB_NAMESPACE]?.structValue?.fields ?? {};
  return { fields: { [ENVOY_LB_NAMESPACE]: { structValue: { fields: { ...lb, [DESTINATION_SCORES_KEY]: { structValue: { fields: byAddress } } } } } } };
}

/**
 * `ip:port[,ip:port...]`, primary first: the value of both the destination header and the
 * `envoy.lb` metadata key (the protocol requires them to be identical).
 * @public
 */
export function destinationValue(targets: readonly Endpoint[]): string {
  let out = '';
  for (const t of targets) out = out === '' ? t.address : `${out},${t.address}`;
  return out;
}

/**
 * Builds the reply to the request headers: destination header and metadata, Content-Length of the
 * forwarded body, decision headers, a request id when missing, the echoed client headers, removal
 * of client-sent control headers, and `clear_route_cache` since the destination affects routing.
 * @public
 */
export function forwardHeadersResponse(plan: ForwardPlan): ProcessingResponse {
  // The picker may already have formatted the destination; header and metadata must be identical.
  const destination = plan.decisionHeaders[DESTINATION_HEADER] ?? destinationValue(plan.targets);
  const set = new Map<string, string>();
  set.set(DESTINATION_HEADER, destination);
  for (const [name, value] of Object.entries(plan.decisionHeaders)) {
    const key = name.toLowerCase();
    if (key !== DESTINATION_HEADER && key !== 'content-length') set.set(key, value);
  }
  if (plan.bodyLength !== undefined && plan.bodyLength > 0) set.set('content-length', String(plan.bodyLength));
  if (plan.requestId !== undefined && plan.requestHeaders[REQUEST_ID_HEADER] === undefined) set.set(REQUEST_ID_HEADER, plan.requestId);
  const remove: string[] = [];
  for (const [name, value] of Object.entries(plan.requestHeaders)) {
    if (set.has(name)) continue;
    if (isControlHeader(name)) {
      // Client copies of control headers (x-llm-d-*, x-gateway-*, sidecar routing headers such as
      // x-prefiller-url) must not reach the model server.
      remove.push(name);
      continue;
    }
    if (plan.echo && !name.startsWith(':') && !name.startsWith('x-envoy-') && !NOT_ECHOED.has(name)) set.set(name, value);
  }
  const setHeaders: WireHeaderValueOption[] = [];
  for (const [name, value] of set) setHeaders.push(setHeader(name, value));
  return headersResponse('request', {
    mutation: remove.length > 0 ? { set_headers: setHeaders, remove_headers: remove } : { set_headers: setHeaders },
    clearRouteCache: true,
    dynamicMetadata: lbMetadata(destination, plan.scores),
  });
}
