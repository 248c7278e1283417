import { describe, expect, it } from 'vitest';
import { CONTROL_HEADERS, normalizeHeaders, readClassificationHeader, stripControlHeaders } from '@switchyard/core';

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
});
