import { constants, createSecureServer, createServer, type Http2SecureServer, type Http2Server, type Http2Session, type IncomingHttpHeaders, type ServerHttp2Stream } from 'node:http2';
import type { Clock } from '@switchyard/core';
import type { ProcessingRequest, ProcessingResponse } from '../../wire/messages.js';
import type { BoundTransport, TransportContext } from '../transport.js';
import type { EppKeepaliveOptions } from '../options.js';
import { GrpcServerCall, GrpcStatus } from './call.js';
import { parseGrpcTimeout } from './deadline.js';
import { checkRoute, processRoute, watchRoute, type MethodCodec, type Route } from './routes.js';

/*
 * Window sizes: node's defaults (64 KiB per stream and per connection) cost a WINDOW_UPDATE round
 * trip every 64 KiB of a 400 KB prompt. 1 MiB per stream, 16 MiB per connection let a body arrive
 * in one go; backpressure still holds, as a paused stream stops returning window.
 */
const STREAM_WINDOW_BYTES = 1024 * 1024;
const SESSION_WINDOW_BYTES = 16 * 1024 * 1024;
/** nghttp2's buffered-bytes guard per connection (node's default is 10 MB), MB. */
const MAX_SESSION_MEMORY_MB = 64;

type AnyServer = Http2Server | Http2SecureServer;

/** One listening HTTP/2 server and the connections it holds. */
interface Listener {
  readonly server: AnyServer;
  readonly sessions: Set<Http2Session>;
  readonly port: number;
}

function codecOf<Req, Res>(service: object, method: string): MethodCodec<Req, Res> {
  return (service as Record<string, MethodCodec<Req, Res>>)[method] as MethodCodec<Req, Res>;
}

function reject(stream: ServerHttp2Stream, status: number): void {
  stream.respond({ ':status': status }, { endStream: true });
  stream.resume();
}

/**
 * Checks a new stream's headers and hands it to its route; unknown methods get UNIMPLEMENTED, a
 * `grpc-timeout` starts the call's deadline (a malformed one is INTERNAL, as grpc-js answers).
 */
function dispatch(routes: ReadonlyMap<string, Route>, stream: ServerHttp2Stream, headers: IncomingHttpHeaders, clock: Clock): void {
  stream.on('error', () => undefined); // reported through 'close' to the route; never the process
  if (headers[':method'] !== 'POST') {
    reject(stream, 405);
    return;
  }
  // gRPC over HTTP/2: a content-type that is not application/grpc[+proto|...] is HTTP 415.
  const type = headers['content-type'] ?? '';
  if (!type.startsWith('application/grpc')) {
    reject(stream, 415);
    return;
  }
  const call = new GrpcServerCall(stream);
  const path = headers[':path'] ?? '';
  const route = routes.get(path);
  if (route === undefined) {
    call.end(GrpcStatus.UNIMPLEMENTED, `unknown method ${path}`);
    stream.resume();
    return;
  }
  const encoding = headers['grpc-encoding'];
  if (encoding !== undefined && encoding !== 'identity') {
    call.end(GrpcStatus.UNIMPLEMENTED, `grpc-encoding ${String(encoding)} is not supported (identity only)`);
    stream.resume();
    return;
  }
  const timeout = headers['grpc-timeout'];
  if (timeout !== undefined) {
    const parsed = parseGrpcTimeout(String(timeout));
    if (!parsed.ok) {
      call.end(GrpcStatus.INTERNAL, parsed.message);
      stream.resume();
      return;
    }
    call.startDeadline(parsed.ms, clock);
  }
  route(stream, call);
}

/** Pings a connection idle for `timeMs`; destroys it when the ack takes longer than `timeoutMs`. */
function keepAlive(session: Http2Session, keepalive: Required<EppKeepaliveOptions>, clock: Clock): void {
  session.setTimeout(keepalive.timeMs, () => {
    if (session.destroyed || session.closed) return;
    const timer = clock.setTimeout(() => {
      session.destroy();
    }, keepalive.timeoutMs);
    const sent = session.ping((error) => {
      clock.clearTimeout(timer);
      if (error !== null) session.destroy();
    });
    if (!sent) clock.clearTimeout(timer);
  });
}

async function listen(server: AnyServer, host: string, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error): void => {
      reject(error);
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const address = server.address();
  return typeof address === 'object' && address !== null ? address.port : port;
}

function serve(context: TransportContext, routes: ReadonlyMap<string, Route>, tls: boolean): AnyServer {
  const { options } = context;
  const settings = {
    initialWindowSize: STREAM_WINDOW_BYTES,
    ...(options.maxConcurrentStreams !== undefined ? { maxConcurrentStreams: options.maxConcurrentStreams } : {}),
  };
  const common = { settings, maxSessionMemory: MAX_SESSION_MEMORY_MB };
  const server: AnyServer =
    tls && options.tls !== undefined
      ? createSecureServer({ ...common, cert: Buffer.from(options.tls.cert), key: Buffer.from(options.tls.key), allowHTTP1: false })
      : createServer(common);
  server.on('stream', (stream, headers) => {
    dispatch(routes, stream, headers, context.clock);
  });
  // A broken connection costs its streams (each sees 'close'), never the process.
  server.on('sessionError', () => undefined);
  return server;
}

async function start(context: TransportContext, routes: ReadonlyMap<string, Route>, port: number, tls: boolean): Promise<Listener> {
  const server = serve(context, routes, tls);
  const sessions = new Set<Http2Session>();
  server.on('session', (session) => {
    sessions.add(session);
    session.on('error', () => undefined);
    session.once('close', () => sessions.delete(session));
    session.once('remoteSettings', () => {
      session.setLocalWindowSize(SESSION_WINDOW_BYTES);
    });
    keepAlive(session, context.options.keepalive, context.clock);
  });
  const bound = await listen(server, context.options.host, port);
  return { server, sessions, port: bound };
}

/** Stops accepting, lets each connection finish its open streams (GOAWAY), destroys what is left after `graceMs`. */
async function drain(listener: Listener, graceMs: number, clock: Clock): Promise<void> {
  const closed = new Promise<void>((resolve) => {
    listener.server.close(() => {
      resolve();
    });
  });
  for (const session of listener.sessions) session.close();
  let timer: ReturnType<Clock['setTimeout']> | undefined;
  const late = new Promise<void>((resolve) => {
    timer = clock.setTimeout(() => {
      for (const session of listener.sessions) session.destroy(undefined, constants.NGHTTP2_NO_ERROR);
      resolve();
    }, graceMs);
  });
  await Promise.race([closed, late]);
  if (timer !== undefined) clock.clearTimeout(timer);
  await closed;
}

/**
 * The `http2` transport: gRPC spoken directly on `node:http2` (length-prefixed messages, status in
 * trailers), with the built-in or proto-loader codecs and no gRPC library on the request path.
 */
export async function bindHttp2(context: TransportContext): Promise<BoundTransport> {
  const { options, services, calls, health, clock } = context;
  const watchers = new Set<() => void>();
  const healthRoutes: [string, Route][] = [
    ['/grpc.health.v1.Health/Check', checkRoute(health, codecOf(services.health, 'Check'))],
    ['/grpc.health.v1.Health/Watch', watchRoute(health, codecOf(services.health, 'Watch'), watchers)],
  ];
  const process = codecOf<ProcessingRequest, ProcessingResponse>(services.extProc, 'Process');
  // Same limit as the grpc-js transport: a proxy with large buffers may send one big body chunk.
  const maxMessageBytes = Math.max(4 * 1024 * 1024, options.maxBodyBytes + 65_536);
  const routes = new Map<string, Route>([[process.path, processRoute(calls, process, maxMessageBytes)], ...healthRoutes]);
  const main = await start(context, routes, options.port, true);
  let probes: Listener | undefined;
  if (options.healthPort !== undefined) {
    try {
      // Plaintext whatever the ext_proc port uses: Kubernetes gRPC probes do not speak TLS.
      probes = await start(context, new Map(healthRoutes), options.healthPort, false);
    } catch (error) {
      main.server.close();
      throw error;
    }
  }
  return {
    port: main.port,
    healthPort: probes?.port,
    async close(graceMs) {
      for (const end of [...watchers]) end();
      if (probes !== undefined) await drain(probes, 0, clock);
      await drain(main, graceMs, clock);
    },
  };
}
