import { EndpointPool } from '@switchyard/core';
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.doUnmock('@grpc/grpc-js');
  vi.doUnmock('@grpc/proto-loader');
  vi.resetModules();
});

describe('optional peer dependencies', () => {
  it('names @grpc/grpc-js when it is missing', async () => {
    vi.resetModules();
    vi.doMock('@grpc/grpc-js', () => {
      throw new Error("Cannot find package '@grpc/grpc-js'");
    });
    const { startEppServer } = await import('@switchyard/envoy');
    const start = startEppServer({ transport: 'grpc-js', scheduler: { pick: () => Promise.reject(new Error('unused')) }, pool: new EndpointPool(), port: 0 });
    await expect(start).rejects.toMatchObject({ code: 'CONFIG_INVALID', message: expect.stringContaining('npm install @grpc/grpc-js') as unknown });
  });

  it('serves the http2 transport without @grpc/grpc-js', async () => {
    vi.resetModules();
    vi.doMock('@grpc/grpc-js', () => {
      throw new Error("Cannot find package '@grpc/grpc-js'");
    });
    const { startEppServer, ServingStatus } = await import('@switchyard/envoy');
    const server = await startEppServer({ transport: 'http2', scheduler: { pick: () => Promise.reject(new Error('unused')) }, pool: new EndpointPool(), host: '127.0.0.1', port: 0 });
    expect(server.transport).toBe('http2');
    expect(server.health.statusOf('readiness')).toBe(ServingStatus.SERVING);
    await server.close(100);
  });

  it('needs @grpc/proto-loader only for the proto-loader codec', async () => {
    vi.resetModules();
    vi.doMock('@grpc/proto-loader', () => {
      throw new Error("Cannot find package '@grpc/proto-loader'");
    });
    const { startEppServer } = await import('@switchyard/envoy');
    const scheduler = { pick: () => Promise.reject(new Error('unused')) };
    const server = await startEppServer({ transport: 'grpc-js', scheduler, pool: new EndpointPool(), host: '127.0.0.1', port: 0 });
    await server.close(100);
    await expect(startEppServer({ scheduler, pool: new EndpointPool(), host: '127.0.0.1', port: 0, codec: 'proto-loader' })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringContaining('@grpc/proto-loader') as unknown,
    });
  });
});
