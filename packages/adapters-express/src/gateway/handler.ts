import type { IncomingMessage, ServerResponse } from 'node:http';
import { SwitchyardError } from '@switchyard/core';
import type { ModelRouter } from '../models/router.js';
import { serveInference } from './exchange.js';
import type { GatewayMetrics } from './metrics.js';
import { handleOperational, OPERATIONAL_PATHS } from './ops.js';
import type { GatewayOptions } from './options.js';
import { sendJson } from './respond.js';
import { createRuntime, type GatewayRuntime } from './runtime.js';
import { resolveGatewayCloseOptions } from './defaults.js';

/**
 * Per-call options of {@link GatewayHandler.handle}, used by framework wrappers.
 * @public
 * @category Gateway options
 */
export interface HandleOptions {
  /** The request body, when a framework already read it (the stream is then not read again). */
  readonly body?: Uint8Array;
  /** Called instead of answering 404 when the path is not the gateway's. */
  readonly next?: () => void;
  /**
   * The gateway path the framework routed the request to, when it differs from `req.url` (a
   * mount prefix, e.g. Fastify's `prefix`); the upstream gets this path plus the query.
   */
  readonly path?: string;
}

/**
 * Options of {@link GatewayHandler.close}.
 * @public
 * @category Gateway options
 */
export interface CloseOptions {
  /**
   * How long to wait for requests being forwarded before aborting them, ms.
   * @defaultValue 30000
   */
  readonly graceMs?: number;
}

/**
 * A `node:http` request listener that is a whole inference gateway, plus its lifecycle.
 * Use it as `http.createServer(handler)`; the Express and Fastify wrappers call {@link GatewayHandler.handle}.
 * @public
 * @category Gateway options
 */
export interface GatewayHandler {
  /** Serves one request; unknown paths go to `next` when given, else get 404. */
  (req: IncomingMessage, res: ServerResponse, next?: () => void): void;
  /** Serves one request; resolves when it is fully answered. Never rejects. */
  handle(req: IncomingMessage, res: ServerResponse, options?: HandleOptions): Promise<void>;
  /**
   * Graceful shutdown: new and queued requests get 503 `rejected-shutting-down`, requests being
   * forwarded get `graceMs` to finish, then are aborted; the gateway's own dispatcher is closed.
   * The HTTP server is the caller's to close.
   */
  close(options?: CloseOptions): Promise<void>;
  /** True once `close` was called. */
  readonly shuttingDown: boolean;
  /** The gateway's metrics. */
  readonly metrics: GatewayMetrics;
  /** Model → pool routing. */
  readonly router: ModelRouter;
  /** Whether `path` (query stripped) is served by this gateway for `method`. */
  owns(method: string, path: string): boolean;
}

/**
 * Creates the gateway request handler: reads and parses the body, routes by model, schedules with
 * the pool's `RequestScheduler`, forwards with undici keep-alive pools, streams the answer back,
 * and serves `/metrics`, `/healthz`, `/readyz` and `/v1/models`.
 * @example
 * ```ts
 * const handler = createGatewayHandler({ scheduler: picker, endpoints: pool });
 * http.createServer(handler).listen(8080);
 * ```
 * @throws SwitchyardError `CONFIG_INVALID` on invalid options
 * @public
 * @category Gateway
 */
export function createGatewayHandler(options: GatewayOptions): GatewayHandler {
  const rt = createRuntime(options);
  const ops = new Set<string>(OPERATIONAL_PATHS);
  if (!rt.serveMetrics) ops.delete('/metrics');
  const pathOf = (url: string | undefined): string => {
    const u = url ?? '/';
    const q = u.indexOf('?');
    return q === -1 ? u : u.slice(0, q);
  };
  const owns = (method: string, path: string): boolean => rt.inferencePaths.has(path) || (rt.operationalRoutes && ops.has(path) && (method === 'GET' || method === 'HEAD'));

  /** Serves a request; `onDone` (when given) is called once it is fully answered. */
  const serve = (req: IncomingMessage, res: ServerResponse, opts: HandleOptions, onDone: (() => void) | undefined): void => {
    const path = opts.path ?? pathOf(req.url);
    const method = req.method ?? 'GET';
    if (rt.inferencePaths.has(path)) {
      if (method !== 'POST') {
        countOther(rt, 'inference', sendJson(res, 405, errorBody(`method ${method} not allowed on ${path}; use POST`, 'method_not_allowed'), { allow: 'POST' }));
        onDone?.();
        return;
      }
      serveInference(rt, req, res, path, opts.body, onDone);
      return;
    }
    void serveOther(res, path, method, opts).then(onDone);
  };

  const serveOther = async (res: ServerResponse, path: string, method: string, opts: HandleOptions): Promise<void> => {
    if (rt.operationalRoutes && ops.has(path) && (method === 'GET' || method === 'HEAD')) {
      const route = path === '/v1/models' ? 'models' : (path.slice(1) as 'healthz' | 'readyz' | 'metrics');
      let status: number;
      try {
        status = await handleOperational(rt, path, res);
      } catch (err) {
        status = sendJson(res, 500, errorBody(`${path} failed: ${err instanceof Error ? err.message : String(err)}`, 'internal'));
      }
      countOther(rt, route, status);
      return;
    }
    if (opts.next !== undefined) {
      opts.next();
      return;
    }
    countOther(rt, 'unknown', sendJson(res, 404, errorBody(`unknown path ${path}`, 'not_found')));
  };

  const handle = (req: IncomingMessage, res: ServerResponse, opts: HandleOptions = {}): Promise<void> =>
    new Promise((resolve) => {
      serve(req, res, opts, resolve);
    });

  // The plain request listener needs no promise: nobody waits for it.
  const noOptions: HandleOptions = {};
  const handler = ((req: IncomingMessage, res: ServerResponse, next?: () => void): void => {
    serve(req, res, next === undefined ? noOptions : { next }, undefined);
  }) as GatewayHandler;
  Object.defineProperties(handler, {
    handle: { value: handle },
    close: {
      value: async (o?: CloseOptions): Promise<void> => {
        const { graceMs } = resolveGatewayCloseOptions(o);
        await rt.tracker.shutdown(rt.clock, graceMs, new SwitchyardError('REJECTED_SHUTTING_DOWN', 'the gateway shut down before the response was complete'));
        if (rt.ownsDispatcher) await rt.dispatcher.close();
      },
    },
    shuttingDown: { get: () => rt.tracker.shuttingDown },
    metrics: { value: rt.metrics },
    router: { value: rt.router },
    owns: { value: owns },
  });
  return handler;
}

function errorBody(message: string, code: string): { error: { message: string; type: string; code: string; param: null } } {
  return { error: { message, type: 'invalid_request_error', code, param: null } };
}

function countOther(rt: GatewayRuntime, route: 'inference' | 'models' | 'healthz' | 'readyz' | 'metrics' | 'unknown', status: number): void {
  rt.metrics.countRequest(route, status === 0 ? 499 : status);
}
