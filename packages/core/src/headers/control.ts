import { CONTROL_HEADERS } from './names.js';

/**
 * Name prefixes reserved for the gateway's control plane: anything a client sends under them is
 * dropped before forwarding, so headers added by future llm-d or Gateway API versions (routing
 * hints, scores, subsets) are covered without being listed one by one.
 * @public
 * @category Header contract
 */
export const CONTROL_HEADER_PREFIXES: readonly string[] = ['x-llm-d-', 'x-gateway-'];

/**
 * Headers outside the reserved prefixes that a model-server sidecar trusts to route a request:
 * llm-d's routing sidecar reads the prefill / encode / data-parallel targets and the P2P KV source from them (older
 * versions read `x-prefiller-url`, an SSRF vector when a client can set it), and the
 * classification aliases without a reserved prefix.
 * @public
 * @category Header contract
 */
export const SIDECAR_TRUSTED_HEADERS: readonly string[] = ['x-prefiller-url', 'x-prefiller-host-port', 'x-decoder-host-port', 'x-encoder-hosts-ports', 'x-data-parallel-host-port', 'x-kv-cache-source-host-port', 'x-slo-ttft-ms', 'x-slo-tpot-ms'];

const NAMED = new Set<string>([...CONTROL_HEADERS, ...SIDECAR_TRUSTED_HEADERS]);

/**
 * True when a client copy of header `name` must never reach a model server: a name under
 * {@link CONTROL_HEADER_PREFIXES}, a {@link CONTROL_HEADERS} name, or a
 * {@link SIDECAR_TRUSTED_HEADERS} name. The gateway and the EPP drop such headers from every
 * client request (trusted clients' classification headers are read, then dropped too); the
 * decision's own headers are set afterwards.
 * @param name - lower-case header name
 * @public
 * @category Header contract
 */
export function isControlHeader(name: string): boolean {
  // Every control header starts with "x-": one comparison rejects most names.
  if (name.charCodeAt(0) !== 120 || name.charCodeAt(1) !== 45) return false;
  return name.startsWith('x-llm-d-') || name.startsWith('x-gateway-') || NAMED.has(name);
}
