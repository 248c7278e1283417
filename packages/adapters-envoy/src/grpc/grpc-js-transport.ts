import type * as GrpcJs from '@grpc/grpc-js';
import type { ProcessingRequest, ProcessingResponse } from '../wire/messages.js';
import { loadGrpcJs } from './load.js';
import { hostPort, type BoundTransport, type TransportContext } from './transport.js';

type ProcessCall = GrpcJs.ServerDuplexStream<ProcessingRequest, ProcessingResponse>;
interface HealthRequest {
  service?: string;
}
interface HealthResponse {
  status: number;
}

/**
 * The `grpc-js` transport: ext_proc and health served by `@grpc/grpc-js` (an optional peer,
 * loaded here on first use).
 */
export async function bindGrpcJs(context: TransportContext): Promise<BoundTransport> {
  const { options, services, calls, health, clock } = context;
  const grpc = await loadGrpcJs();
  const watchers = new Set<GrpcJs.ServerWritableStream<HealthRequest, HealthResponse>>();

  function process(call: ProcessCall): void {
    const events = calls.open({
      write: (message) => call.write(message),
      end: () => { call.end(); },
      fail: (details) => call.emit('error', { code: grpc.status.INTERNAL, details }),
    });
    call.on('data', events.message);
    // A reset stream ends the readable side before grpc-js reports the cancel: decide after
    // that has had its turn, so a reset is a cancel, not a half-close.
    call.on('end', () => {
      setImmediate(() => {
        if (!call.cancelled) events.halfClosed();
      });
    });
    // grpc-js reports an elapsed grpc-timeout as a cancel too; the call ended DEADLINE_EXCEEDED.
    call.on('cancelled', () => {
      const deadline = call.getDeadline();
      events.cancelled(Number(deadline) <= Date.now() ? grpc.status.DEADLINE_EXCEEDED : undefined);
    });
    // grpc-js ends the call with the error's code (its own decoding failures carry one).
    call.on('error', (error: { code?: unknown }) => {
      events.failed(error, typeof error.code === 'number' ? error.code : undefined);
    });
  }

  function check(call: GrpcJs.ServerUnaryCall<HealthRequest, HealthResponse>, callback: GrpcJs.sendUnaryData<HealthResponse>): void {
    callback(null, { status: health.statusOf(call.request.service ?? '') });
  }

  function watch(call: GrpcJs.ServerWritableStream<HealthRequest, HealthResponse>): void {
    const service = call.request.service ?? '';
    let last = health.statusOf(service);
    call.write({ status: last });
    const onChange = (): void => {
      const now = health.statusOf(service);
      if (now !== last) call.write({ status: (last = now) });
    };
    health.on('change', onChange);
    watchers.add(call);
    call.on('cancelled', () => {
      health.off('change', onChange);
      watchers.delete(call);
    });
  }

  const keepalive = options.keepalive;
  const server = new grpc.Server({
    'grpc.keepalive_time_ms': keepalive.timeMs,
    'grpc.keepalive_timeout_ms': keepalive.timeoutMs,
    // A proxy with large buffers may send a body chunk bigger than grpc's 4 MiB default.
    'grpc.max_receive_message_length': Math.max(4 * 1024 * 1024, options.maxBodyBytes + 65_536),
    ...(options.maxConcurrentStreams !== undefined ? { 'grpc.max_concurrent_streams': options.maxConcurrentStreams } : {}),
  });
  server.addService(services.extProc, { Process: process });
  server.addService(services.health, { Check: check, Watch: watch });
  const credentials =
    options.tls === undefined
      ? grpc.ServerCredentials.createInsecure()
      : grpc.ServerCredentials.createSsl(null, [{ cert_chain: Buffer.from(options.tls.cert), private_key: Buffer.from(options.tls.key) }], false);
  const host = options.host;
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(hostPort(host, options.port), credentials, (error, bound) => {
      if (error === null) resolve(bound);
      else reject(error);
    });
  });
  // Probes on their own port (llm-d's 9003): the same health state, nothing else served there.
  let healthServer: GrpcJs.Server | undefined;
  let healthPort: number | undefined;
  if (options.healthPort !== undefined) {
    healthServer = new grpc.Server();
    healthServer.addService(services.health, { Check: check, Watch: watch });
    try {
      // Plaintext whatever the ext_proc port uses: Kubernetes gRPC probes do not speak TLS.
      healthPort = await new Promise<number>((resolve, reject) => {
        healthServer?.bindAsync(hostPort(host, options.healthPort ?? 0), grpc.ServerCredentials.createInsecure(), (error, bound) => {
          if (error === null) resolve(bound);
          else reject(error);
        });
      });
    } catch (error) {
      server.forceShutdown();
      healthServer.forceShutdown();
      throw error;
    }
  }

  return {
    port,
    healthPort,
    async close(graceMs) {
      for (const w of watchers) w.end();
      watchers.clear();
      healthServer?.forceShutdown();
      await new Promise<void>((resolve) => {
        const timer = clock.setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        server.tryShutdown(() => {
          clock.clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}
