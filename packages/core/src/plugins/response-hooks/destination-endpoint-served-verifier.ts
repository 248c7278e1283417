import { z } from 'zod';
import { CONFORMANCE_SERVED_ENDPOINT_HEADER } from '../../headers/names.js';
import { definePlugin } from '../../registry/types.js';
import type { Plugin, RequestLifecycle, ResponseStartInfo } from '../../scheduling/plugins.js';

/**
 * Type of llm-d's conformance-test response hook. @public
 * @category Built-in plugins
 */
export const DESTINATION_ENDPOINT_SERVED_VERIFIER = 'destination-endpoint-served-verifier';

/** llm-d's values when Envoy did not say which endpoint it used. */
const MISSING_LB_METADATA = 'fail: missing envoy lb metadata';
const MISSING_SERVED = 'fail: missing destination endpoint served metadata';

/**
 * The value `destination-endpoint-served-verifier` writes for one response: what Envoy reported in
 * `envoy.lb` → `x-gateway-destination-endpoint-served`, llm-d's `fail: …` text when it reported
 * nothing, or — when the adapter forwarded the request itself (switchyard-gateway) — the address
 * of the endpoint that answered.
 * @public
 * @category Built-in plugins
 */
export function servedEndpointVerdict(info: ResponseStartInfo): string {
  const report = info.dataPlane;
  if (report === undefined) return info.endpoint.address;
  if (!report.lbMetadata) return MISSING_LB_METADATA;
  return report.served ?? MISSING_SERVED;
}

/**
 * `destination-endpoint-served-verifier` (llm-d, for GAIE's conformance tests): when the response
 * headers arrive, sets `x-conformance-test-served-endpoint` to the endpoint the data plane says it
 * used, so a test can check that Envoy honoured the picker's choice. No parameters.
 * @public
 * @category Built-in plugins
 */
export const destinationEndpointServedVerifierPlugin = definePlugin({
  type: DESTINATION_ENDPOINT_SERVED_VERIFIER,
  description: 'Echoes the endpoint Envoy reports as served in x-conformance-test-served-endpoint.',
  parameters: z.strictObject({}).prefault({}),
  create: (_p, ctx): Plugin & RequestLifecycle => ({
    type: DESTINATION_ENDPOINT_SERVED_VERIFIER,
    name: ctx.name,
    onResponseStart(_request, info) {
      const headers = info.responseHeaders;
      if (headers !== undefined) headers[CONFORMANCE_SERVED_ENDPOINT_HEADER] = servedEndpointVerdict(info);
    },
  }),
});
