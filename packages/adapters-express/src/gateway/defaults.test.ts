import { describe, expect, it } from 'vitest';
import { EndpointPool, SwitchyardError } from '@switchyard/core';
import { FakeScheduler } from '@switchyard/core/testing';
import { GATEWAY_DEFAULTS, createGatewayHandler, resolveGatewayCloseOptions, resolveGatewayOptions, type GatewayOptions } from '@switchyard/express';

const scheduler = new FakeScheduler(new EndpointPool());

const errorOf = (f: () => unknown): SwitchyardError => {
  try {
    f();
  } catch (e) {
    if (e instanceof SwitchyardError) return e;
    throw e;
  }
  throw new Error('did not throw');
};

describe('resolveGatewayOptions', () => {
  it('gives every default from GATEWAY_DEFAULTS and passes the collaborators through, frozen', () => {
    const o = resolveGatewayOptions({ scheduler });
    expect(o.scheduler).toBe(scheduler);
    for (const [key, value] of Object.entries(GATEWAY_DEFAULTS)) expect(o[key as keyof typeof o], key).toEqual(value);
    expect(Object.isFrozen(o)).toBe(true);
    expect(resolveGatewayOptions({ scheduler, upstream: { maxAttempts: 5 } }).upstream).toEqual({ ...GATEWAY_DEFAULTS.upstream, maxAttempts: 5 });
    expect(resolveGatewayOptions({ scheduler, retryAfterSeconds: 1.5 }).retryAfterSeconds).toBe(2);
  });

  it.each([
    [{ upstream: { maxAttempts: 0 } }, 'gateway.upstream.maxAttempts', 'gateway.upstream.maxAttempts: must be an integer from 1 to 10, got 0'],
    [{ upstream: { maxAttempts: 11 } }, 'gateway.upstream.maxAttempts', 'gateway.upstream.maxAttempts: must be an integer from 1 to 10, got 11'],
    [{ upstream: { headersTimeoutMs: Number.NaN } }, 'gateway.upstream.headersTimeoutMs', 'gateway.upstream.headersTimeoutMs: must be a positive number, got NaN'],
    [{ maxBodyBytes: 0 }, 'gateway.maxBodyBytes', 'gateway.maxBodyBytes: must be an integer ≥ 1, got 0'],
    [{ failureMode: 'FailSometimes' }, 'gateway.failureMode', "gateway.failureMode: must be one of 'FailClose', 'FailOpen', got \"FailSometimes\""],
    [{ trustClassificationHeaders: 'yes' }, 'gateway.trustClassificationHeaders', 'gateway.trustClassificationHeaders: must be true, false or a function of the request, got "yes"'],
    [{ inferencePaths: ['v1/chat'] }, 'gateway.inferencePaths', 'gateway.inferencePaths: must be an array of paths starting with "/", got an array of 1'],
    [{ serveMetrics: 'no' }, 'gateway.serveMetrics', 'gateway.serveMetrics: must be true or false, got "no"'],
  ])('rejects %j naming the field', (bad, field, message) => {
    const options = { scheduler, ...bad } as unknown as GatewayOptions;
    const e = errorOf(() => resolveGatewayOptions(options));
    expect(e.code).toBe('CONFIG_INVALID');
    expect(e.field).toBe(field);
    expect(e.message).toBe(message);
    // The handler resolves through the same step: maxAttempts 0 throws, it never means 1.
    expect(errorOf(() => createGatewayHandler(options)).message).toBe(message);
  });

  it('resolves the close options the same way', () => {
    expect(resolveGatewayCloseOptions(undefined)).toEqual({ graceMs: 30_000 });
    expect(resolveGatewayCloseOptions({ graceMs: 0 })).toEqual({ graceMs: 0 });
    expect(errorOf(() => resolveGatewayCloseOptions({ graceMs: -1 })).field).toBe('gateway.close.graceMs');
  });
});
