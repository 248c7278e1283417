/* eslint-disable @typescript-eslint/no-deprecated -- one test exercises the deprecated trustHeaders alias */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SwitchyardError } from '@switchyard/core';
import { EPP_DEFAULTS, EPP_SERVER_DEFAULTS, EXT_PROC_STREAM_DEFAULTS, resolveEppOptions, resolveEppServerOptions, resolveExtProcStreamOptions, startEpp, type EppOptions } from '@switchyard/envoy';
import { FakeScheduler } from '@switchyard/core/testing';
import { EndpointPool } from '@switchyard/core';

const errorOf = (f: () => unknown): SwitchyardError => {
  try {
    f();
  } catch (e) {
    if (e instanceof SwitchyardError) return e;
    throw e;
  }
  throw new Error('did not throw');
};

const scheduler = new FakeScheduler(new EndpointPool());

afterEach(() => {
  vi.restoreAllMocks();
});

describe('EPP option defaults', () => {
  it('resolves every default from the constants, frozen; the library does not trust classification headers', () => {
    const o = resolveEppOptions({ endpoints: [] });
    for (const [key, value] of Object.entries(EPP_DEFAULTS)) expect(o[key as keyof typeof o], key).toEqual(value);
    expect(o.trustClassificationHeaders).toBe(false);
    expect(Object.isFrozen(o)).toBe(true);
    const s = resolveEppServerOptions({ scheduler });
    for (const [key, value] of Object.entries({ ...EXT_PROC_STREAM_DEFAULTS, ...EPP_SERVER_DEFAULTS })) expect(s[key as keyof typeof s], key).toEqual(value);
    expect(resolveEppServerOptions({ scheduler, keepalive: { timeMs: 5 } }).keepalive).toEqual({ timeMs: 5, timeoutMs: 10_000 });
  });

  it.each([
    [{ grpcPort: 70000 }, 'epp.grpcPort', 'epp.grpcPort: must be an integer from 0 to 65535, got 70000'],
    [{ metricsPort: -1 }, 'epp.metricsPort', 'epp.metricsPort: must be an integer from 0 to 65535, got -1'],
    [{ grpcHealthPort: 1.5 }, 'epp.grpcHealthPort', 'epp.grpcHealthPort: must be an integer from 0 to 65535, got 1.5'],
    [{ maxBodyBytes: 0 }, 'epp.maxBodyBytes', 'epp.maxBodyBytes: must be an integer ≥ 1, got 0'],
    [{ scrapeIntervalMs: 0 }, 'epp.scrapeIntervalMs', 'epp.scrapeIntervalMs: must be a positive number, got 0'],
    [{ trustClassificationHeaders: 'yes' }, 'epp.trustClassificationHeaders', 'epp.trustClassificationHeaders: must be true or false, got "yes"'],
  ])('rejects %j naming the field', async (bad, field, message) => {
    const options = { endpoints: [], ...bad } as unknown as EppOptions;
    const e = errorOf(() => resolveEppOptions(options));
    expect(e.code).toBe('CONFIG_INVALID');
    expect(e.field).toBe(field);
    expect(e.message).toBe(message);
    // startEpp resolves first: nothing is bound or started for a bad option.
    await expect(startEpp({ ...options, log: () => undefined })).rejects.toThrow(message);
  });

  it('names server and stream options under their scope', () => {
    expect(errorOf(() => resolveEppServerOptions({ scheduler, port: -1 })).field).toBe('eppServer.port');
    expect(errorOf(() => resolveEppServerOptions({ scheduler, codec: 'json' as 'builtin' })).field).toBe('eppServer.codec');
    expect(errorOf(() => resolveEppServerOptions({ scheduler, transport: 'quic' as 'http2' })).field).toBe('eppServer.transport');
    expect(errorOf(() => resolveEppOptions({ endpoints: [], transport: 'quic' as 'http2' })).field).toBe('epp.transport');
    expect(errorOf(() => resolveEppServerOptions({ scheduler, keepalive: { timeoutMs: 0 } })).field).toBe('eppServer.keepalive.timeoutMs');
    expect(errorOf(() => resolveExtProcStreamOptions({ scheduler, chunkBytes: 0 })).message).toBe('extProc.chunkBytes: must be an integer ≥ 1, got 0');
  });

  it('reads the deprecated trustHeaders, warns once per process, and refuses a contradiction', () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    expect(resolveEppOptions({ endpoints: [], trustHeaders: true }).trustClassificationHeaders).toBe(true);
    expect(resolveExtProcStreamOptions({ scheduler, trustHeaders: true }).trustClassificationHeaders).toBe(true);
    expect(resolveEppServerOptions({ scheduler, trustHeaders: false }).trustClassificationHeaders).toBe(false);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toMatch(/trustHeaders is deprecated: use trustClassificationHeaders/);
    expect(warn.mock.calls[0]?.[1]).toMatchObject({ type: 'DeprecationWarning', code: 'SWITCHYARD_TRUST_HEADERS' });
    expect('trustHeaders' in resolveEppOptions({ endpoints: [], trustHeaders: true })).toBe(false);
    expect(resolveEppOptions({ endpoints: [], trustHeaders: true, trustClassificationHeaders: true }).trustClassificationHeaders).toBe(true);
    const both = errorOf(() => resolveEppOptions({ endpoints: [], trustHeaders: true, trustClassificationHeaders: false }));
    expect(both.field).toBe('epp.trustHeaders');
    expect(both.message).toMatch(/deprecated name of trustClassificationHeaders \(false\); give one, got true/);
  });

  it('resolves once: a stream given resolved options keeps them', () => {
    const once = resolveExtProcStreamOptions({ scheduler, maxBodyBytes: 10 });
    expect(resolveExtProcStreamOptions(once)).toBe(once);
  });
});
