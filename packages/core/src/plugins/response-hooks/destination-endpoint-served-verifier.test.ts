import { describe, expect, it } from 'vitest';
import { EndpointPool, ManualClock, createDefaultRegistry, destinationEndpointServedVerifierPlugin, loadConfig, type RequestLifecycle, type ResponseStartInfo } from '@switchyard/core';
import { endpoints, instantiate, schedulingRequest } from '@switchyard/core/testing';

const HEAD = 'apiVersion: inference.networking.x-k8s.io/v1alpha1\nkind: EndpointPickerConfig\n';
const [endpoint] = endpoints(1);

/** Runs the verifier's response hook and returns the headers it leaves. */
function headersAfter(info: Omit<ResponseStartInfo, 'endpoint' | 'status' | 'at' | 'responseHeaders'>, initial: Record<string, string> = {}): Record<string, string> {
  const hook = instantiate(destinationEndpointServedVerifierPlugin) as unknown as RequestLifecycle;
  const responseHeaders = { ...initial };
  hook.onResponseStart?.(schedulingRequest(), { endpoint: endpoint!, status: 200, at: 0, responseHeaders, ...info });
  return responseHeaders;
}

describe('destination-endpoint-served-verifier', () => {
  it('copies the served endpoint Envoy reports into x-conformance-test-served-endpoint', () => {
    expect(headersAfter({ dataPlane: { lbMetadata: true, served: '10.0.0.7:3000' } }, { 'x-session-token': 't' })).toEqual({
      'x-session-token': 't',
      'x-conformance-test-served-endpoint': '10.0.0.7:3000',
    });
  });

  it("writes llm-d's fail texts when Envoy sent no envoy.lb metadata, or no served key in it", () => {
    expect(headersAfter({ dataPlane: { lbMetadata: false, served: undefined } })).toEqual({ 'x-conformance-test-served-endpoint': 'fail: missing envoy lb metadata' });
    expect(headersAfter({ dataPlane: { lbMetadata: true, served: undefined } })).toEqual({ 'x-conformance-test-served-endpoint': 'fail: missing destination endpoint served metadata' });
  });

  it('without a data plane (the gateway forwarded itself) reports the endpoint that answered', () => {
    expect(headersAfter({})).toEqual({ 'x-conformance-test-served-endpoint': endpoint!.address });
  });

  it('does nothing when the adapter can no longer add headers', () => {
    const hook = instantiate(destinationEndpointServedVerifierPlugin) as unknown as RequestLifecycle;
    expect(() => hook.onResponseStart?.(schedulingRequest(), { endpoint: endpoint!, status: 200, at: 0 })).not.toThrow();
  });

  it('takes no parameters (as llm-d), naming an unknown one', () => {
    const load = (params: string) => loadConfig(`${HEAD}plugins:\n- type: destination-endpoint-served-verifier${params}\n- type: queue-scorer\n`, { registry: createDefaultRegistry(), pool: new EndpointPool(), clock: new ManualClock() });
    expect(() => load('')).not.toThrow();
    expect(() => load('\n  parameters: {header: x}')).toThrow(/plugins\[0\]\.parameters.*header/);
  });
});
