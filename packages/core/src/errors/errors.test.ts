import { describe, expect, it } from 'vitest';
import { ERROR_CONTRACT, SwitchyardError, errorToResponse, isSwitchyardError } from '@switchyard/core';

describe('error contract', () => {
  it.each([
    ['REJECTED_SATURATED', 429, 'rejected-saturated'],
    ['REJECTED_NO_ENDPOINTS', 503, 'rejected-no-endpoints'],
    ['REJECTED_TTL_EXPIRED', 429, 'rejected-ttl-expired'],
    ['REJECTED_CONTEXT_CANCELLED', 503, 'rejected-context-cancelled'],
    ['REJECTED_SHUTTING_DOWN', 503, 'rejected-shutting-down'],
    ['EVICTED', 429, 'evicted'],
    ['BAD_REQUEST', 400, undefined],
    ['REJECTED_SHEDDABLE', 429, undefined],
  ] as const)('%s → %i with reason %s', (code, status, reason) => {
    const res = errorToResponse(new SwitchyardError(code, 'why'));
    expect(res.status).toBe(status);
    expect(res.headers['x-llm-d-request-dropped-reason']).toBe(reason);
    expect(res.body.error.message).toBe(`inference error: ${code} - why`);
    expect(res.body.error.code).toBe(code.toLowerCase());
    expect(res.body.error.type).toBe(ERROR_CONTRACT[code].type);
  });

  it('hides unknown errors behind a 500 rejected-internal', () => {
    const res = errorToResponse(new Error('secret database password'));
    expect(res.status).toBe(500);
    expect(res.headers['x-llm-d-request-dropped-reason']).toBe('rejected-internal');
    expect(JSON.stringify(res.body)).not.toContain('secret');
  });

  it('recognises errors from another copy of the package by brand', () => {
    const foreign = Object.assign(new Error('x'), { [Symbol.for('switchyard.error')]: true, code: 'BAD_REQUEST' });
    expect(isSwitchyardError(foreign)).toBe(true);
    expect(foreign instanceof SwitchyardError).toBe(true);
    expect(isSwitchyardError(new Error('x'))).toBe(false);
    expect(isSwitchyardError(null)).toBe(false);
  });

  it('keeps the cause', () => {
    const cause = new Error('inner');
    expect(new SwitchyardError('INTERNAL', 'outer', { cause }).cause).toBe(cause);
  });
});
