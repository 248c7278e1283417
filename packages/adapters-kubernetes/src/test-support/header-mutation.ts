import type { WireHeaderMutation } from '../../../adapters-envoy/src/wire/messages.js';

/**
 * The headers an ext_proc header mutation sets, by name. An empty value arrives without
 * `raw_value` (proto3 omits empty bytes), so it reads as ''.
 */
export function mutationHeaders(m: WireHeaderMutation | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of m?.set_headers ?? []) out[h.header.key] = Buffer.from((h.header.raw_value as Uint8Array | undefined) ?? new Uint8Array()).toString('utf8');
  return out;
}
