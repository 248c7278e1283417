import { systemClock } from '@switchyard/core';
import { ExtProcCalls } from './ext-proc-calls.js';
import { bindGrpcJs } from './grpc-js-transport.js';
import { HealthState } from './health.js';
import { bindHttp2 } from './http2/server.js';
import { builtinServices, loadProtoLoader, protoLoaderServices } from './load.js';
import type { EppServer, EppServerOptions } from './options.js';
import { resolveEppServerOptions } from './server-defaults.js';
import { ExtProcStreamMetrics } from './stream-metrics.js';

/**
 * Starts the endpoint picker: `envoy.service.ext_proc.v3.ExternalProcessor/Process` and
 * `grpc.health.v1.Health` on one gRPC port (and health alone on `healthPort` when given). The
 * `transport` option picks who speaks gRPC: `http2` (the default: gRPC framed directly on
 * `node:http2`, no gRPC library) or `grpc-js` (`@grpc/grpc-js`, an optional peer loaded here on
 * first use).
 * @example
 * ```ts
 * const server = await startEppServer({ scheduler: picker, pool, port: 9002 });
 * process.on('SIGTERM', () => void server.close());
 * ```
 * @public
 * @category Server
 */
export async function startEppServer(input: EppServerOptions): Promise<EppServer> {
  // Resolved once, before anything is loaded or bound: a bad option is a CONFIG_INVALID naming it.
  const options = resolveEppServerOptions(input);
  const services = options.codec === 'proto-loader' ? protoLoaderServices(await loadProtoLoader(), options.protoDir) : builtinServices();
  const clock = options.clock ?? systemClock;
  const health = options.health ?? new HealthState(true);
  const calls = new ExtProcCalls({ ...options, clock }, options.streamMetrics === undefined ? undefined : new ExtProcStreamMetrics(options.streamMetrics));
  const context = { options, services, calls, health, clock };
  const transport = options.transport === 'http2' ? await bindHttp2(context) : await bindGrpcJs(context);
  let closing: Promise<void> | undefined;

  async function shutdown(graceMs: number): Promise<void> {
    health.shutdown();
    calls.shutdown();
    await transport.close(graceMs);
    await options.onClose?.();
  }

  return {
    port: transport.port,
    host: options.host,
    healthPort: transport.healthPort,
    health,
    transport: options.transport,
    stats: () => calls.stats(),
    close(graceMs?: number): Promise<void> {
      closing ??= shutdown(graceMs ?? options.shutdownGraceMs);
      return closing;
    },
  };
}
