import type * as GrpcJs from '@grpc/grpc-js';
import { systemClock, type Decision, type SwitchyardError } from '@switchyard/core';
import { ExtProcStream } from '../stream/ext-proc-stream.js';
import type { ExtProcObserver, ExtProcSink } from '../stream/types.js';
import type { ProcessingRequest, ProcessingResponse } from '../wire/messages.js';
import { HealthState } from './health.js';
import { builtinServices, loadGrpcJs, loadProtoLoader, protoLoaderServices } from './load.js';
import type { EppServer, EppServerOptions } from './options.js';
import { resolveEppServerOptions } from './server-defaults.js';
import { resolveExtProcStreamOptions } from '../stream/defaults.js';

type ProcessCall = GrpcJs.ServerDuplexStream<ProcessingRequest, ProcessingResponse>;
interface HealthRequest {
  service?: string;
}
interface HealthResponse {
  status: number;
}

function hostPort(host: string, port: number): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]:${port}` : `${host}:${port}`;
}

function errorDetails(error: unknown): string {
  return error instanceof Error ? error.message : 'internal error';
}

/**
 * Starts the endpoint picker: `envoy.service.ext_proc.v3.ExternalProcessor/Process` and
 * `grpc.health.v1.Health` on one gRPC port (and health alone on `healthPort` when given). `@grpc/grpc-js` and `@grpc/proto-loader` are loaded
 * here, on first use.
 * @example
 * ```ts
 * const server = await startEppServer({ scheduler: picker, pool, port: 9002 });
 * process.on('SIGTERM', () => void server.close());
 * ```
 * @public
 */
export async function startEppServer(input: EppServerOptions): Promise<EppServer> {
  // Resolved once, before anything is loaded or bound: a bad option is a CONFIG_INVALID naming it.
  const options = resolveEppServerOptions(input);
  const grpc = await loadGrpcJs();
  const services = options.codec === 'proto-loader' ? protoLoaderServices(await loadProtoLoader(), options.protoDir) : builtinServices();
  const clock = options.clock ?? systemClock;
  const health = options.health ?? new HealthState(true);
  const streams = new Set<ExtProcStream>();
  const watchers = new Set<GrpcJs.ServerWritableStream<HealthRequest, HealthResponse>>();
  const counters = { decisions: 0, failures: 0, rejected: {} as Record<number, number> };
  let scheduling = 0;
  let closing: Promise<void> | undefined;

  const user = options.observer;
  const observer: ExtProcObserver = {
    onDecision(decision: Decision, latencyMs: number) {
      counters.decisions++;
      user?.onDecision?.(decision, latencyMs);
    },
    onRejected(error: SwitchyardError) {
      counters.rejected[error.status] = (counters.rejected[error.status] ?? 0) + 1;
      user?.onRejected?.(error);
    },
    onComplete: (outcome) => user?.onComplete?.(outcome),
    onFailure(error: unknown) {
      counters.failures++;
      user?.onFailure?.(error);
    },
  };
  // Resolved once for every stream of this server.
  const streamOptions = resolveExtProcStreamOptions({ ...options, clock, observer }, 'eppServer');

  function process(call: ProcessCall): void {
    let ended = false;
    // Declared before the sink so that a stream ending itself (immediate response) is forgotten too.
    let forget = (): void => {
      ended = true;
    };
    const sink: ExtProcSink = {
      send(message) {
        if (!ended) call.write(message);
      },
      close() {
        if (ended) return;
        forget();
        call.end();
      },
      fail(error) {
        if (ended) return;
        forget();
        call.emit('error', { code: grpc.status.INTERNAL, details: errorDetails(error) });
      },
    };
    const stream = new ExtProcStream(sink, streamOptions);
    streams.add(stream);
    forget = (): void => {
      ended = true;
      streams.delete(stream);
    };
    if (closing !== undefined) stream.shutdown();
    call.on('data', (message: ProcessingRequest) => {
      const before = stream.phase;
      try {
        stream.receive(message);
      } catch (error) {
        // A bug must cost this request (the proxy's failure mode applies), never the process.
        stream.error(error);
        sink.fail(error);
        return;
      }
      if (before !== 'scheduling' && stream.phase === 'scheduling') {
        scheduling++;
        void stream.idle().finally(() => scheduling--);
      }
    });
    call.on('end', () => {
      stream.end();
      sink.close();
      forget();
    });
    call.on('cancelled', () => {
      stream.cancel();
      forget();
    });
    call.on('error', (error: unknown) => {
      stream.error(error);
      forget();
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

  async function shutdown(graceMs: number): Promise<void> {
    health.shutdown();
    for (const stream of streams) stream.shutdown();
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
    await options.onClose?.();
  }

  return {
    port,
    host,
    healthPort,
    health,
    stats: () => ({ activeStreams: streams.size, schedulingStreams: scheduling, decisions: counters.decisions, rejected: { ...counters.rejected }, failures: counters.failures }),
    close(graceMs?: number): Promise<void> {
      closing ??= shutdown(graceMs ?? options.shutdownGraceMs);
      return closing;
    },
  };
}
