import { describe, expect, it } from 'vitest';
import * as root from '@switchyard/express';

// The root lists its names one by one; the proxy machinery and the config-assembly helpers are
// not API, so a refactor of them never breaks an application.
describe('@switchyard/express root exports', () => {
  it('keeps the proxy and config helpers out of the public root', () => {
    const helpers = ['readBody', 'sendJson', 'sendError', 'connectionSignal', 'ClientGoneError', 'BodyWatch', 'requestIdGenerator', 'buildUpstreamHeaders', 'forwardRequest', 'ProxyAttempt', 'classifyUpstreamError', 'addressMatcher', 'splitConfig', 'buildPool'];
    expect(helpers.filter((name) => name in root)).toEqual([]);
  });

  it('exports what the examples and the docs use', () => {
    for (const name of ['createGatewayHandler', 'createGatewayFromConfig', 'switchyard', 'runGatewayCli', 'parseGatewayArgs', 'ModelRegistry', 'EndpointRotation', 'GatewayMetrics', 'createUndiciMetricsFetcher', 'mergeExpositions', 'resolveGatewayOptions', 'resolveGatewayCloseOptions']) {
      expect(typeof (root as Record<string, unknown>)[name], name).toBe('function');
    }
  });

  it('exports the gateway option defaults, frozen', () => {
    expect(Object.isFrozen(root.GATEWAY_DEFAULTS)).toBe(true);
    expect(Object.isFrozen(root.GATEWAY_DEFAULTS.upstream)).toBe(true);
    expect(Object.isFrozen(root.GATEWAY_CLOSE_DEFAULTS)).toBe(true);
    expect(Object.isFrozen(root.ENDPOINT_ROTATION_DEFAULTS)).toBe(true);
    expect(Object.isFrozen(root.GATEWAY_SECTION_DEFAULTS)).toBe(true);
    expect(Object.isFrozen(root.GATEWAY_SECTION_DEFAULTS.circuitBreaker)).toBe(true);
    expect(Object.isFrozen(root.GATEWAY_SECTION_DEFAULTS.listen)).toBe(true);
  });
});
