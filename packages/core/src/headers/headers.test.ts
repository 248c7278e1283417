import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CONTROL_HEADERS, SIDECAR_TRUSTED_HEADERS, isControlHeader, normalizeHeaders, readClassificationHeader, stripControlHeaders } from '@switchyard/core';

describe('header contract', () => {
  it('prefers the canonical name, even when it is empty', () => {
    expect(readClassificationHeader({ 'x-gateway-inference-fairness-id': 'b' }, 'fairnessId')).toBe('b');
    expect(readClassificationHeader({ 'x-llm-d-inference-fairness-id': 'a', 'x-gateway-inference-fairness-id': 'b' }, 'fairnessId')).toBe('a');
    expect(readClassificationHeader({ 'x-llm-d-inference-fairness-id': '', 'x-gateway-inference-fairness-id': 'b' }, 'fairnessId')).toBe('');
    expect(readClassificationHeader({}, 'objective')).toBeUndefined();
    expect(readClassificationHeader({ 'x-slo-ttft-ms': '200' }, 'sloTtftMs')).toBe('200');
  });

  it('normalises records, arrays and Headers objects to lower-case names', () => {
    expect(normalizeHeaders({ 'X-A': ' 1', b: ['x', 'y'], c: undefined })).toEqual({ 'x-a': ' 1', b: 'x, y' });
    expect(normalizeHeaders(new Headers({ 'X-Request-Id': 'r1' }))).toEqual({ 'x-request-id': 'r1' });
  });

  it('strips every control header and nothing else', () => {
    const input: Record<string, string> = { authorization: 'Bearer t', 'content-type': 'application/json' };
    for (const h of CONTROL_HEADERS) input[h] = 'spoofed';
    expect(stripControlHeaders(input)).toEqual({ authorization: 'Bearer t', 'content-type': 'application/json' });
    expect(CONTROL_HEADERS).toContain('x-gateway-destination-endpoint');
    expect(CONTROL_HEADERS).toContain('x-gateway-inference-objective');
  });

  it('strips the reserved prefixes and the sidecar-trusted names, not look-alikes', () => {
    const input: Record<string, string> = {
      'x-llm-d-anything-new': 'spoofed',
      'x-gateway-destination-endpoint-subset': '10.0.0.1:8000',
      'x-gateway-destination-endpoint-scores': '{}',
      'x-prefiller-url': 'http://169.254.169.254/',
      'x-slo-ttft-ms': '1',
      'x-session-token': 'keep',
      'x-request-id': 'keep',
      'x-llm-dx': 'keep',
      'x-gatewayish': 'keep',
    };
    for (const h of SIDECAR_TRUSTED_HEADERS) input[h] = 'spoofed';
    expect(stripControlHeaders(input)).toEqual({ 'x-session-token': 'keep', 'x-request-id': 'keep', 'x-llm-dx': 'keep', 'x-gatewayish': 'keep' });
  });

  it('isControlHeader: every name under a reserved prefix, no name outside them unless listed', () => {
    const listed = new Set([...CONTROL_HEADERS, ...SIDECAR_TRUSTED_HEADERS]);
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9-]{0,20}$/), (rest) => {
        expect(isControlHeader(`x-llm-d-${rest}`)).toBe(true);
        expect(isControlHeader(`x-gateway-${rest}`)).toBe(true);
        const other = `x-${rest}`;
        if (!other.startsWith('x-llm-d-') && !other.startsWith('x-gateway-')) expect(isControlHeader(other)).toBe(listed.has(other));
      }),
    );
  });
});
