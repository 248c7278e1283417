import type { IncomingMessage, ServerResponse } from 'node:http';
import { createGatewayHandler, type GatewayHandler } from '../gateway/handler.js';
import type { GatewayOptions } from '../gateway/options.js';

/**
 * A request as Express (or Connect) hands it over: a node request, possibly with a body already
 * read by a body parser.
 * @public
 */
export type ExpressLikeRequest = IncomingMessage & { body?: unknown; _body?: boolean };

/**
 * Express/Connect middleware serving the gateway's routes and calling `next()` for everything
 * else. Its signature uses node's types only, so the library needs nothing from `express` at
 * runtime or in its typings; Express accepts it as a `RequestHandler`.
 * @public
 */
export interface SwitchyardMiddleware {
  (req: ExpressLikeRequest, res: ServerResponse, next: (err?: unknown) => void): void;
  /** The gateway behind the middleware (close it on shutdown). */
  readonly gateway: GatewayHandler;
}

/**
 * The body to hand to the gateway when a body parser already consumed the stream: raw buffers
 * and strings as they are, parsed JSON re-serialised. Undefined when the stream is still unread.
 */
function preReadBody(req: ExpressLikeRequest): Uint8Array | undefined {
  const b = req.body;
  if (b instanceof Uint8Array) return b;
  if (typeof b === 'string') return Buffer.from(b);
  const consumed = req._body === true || req.readableEnded;
  if (!consumed) return undefined;
  return b === undefined || b === null ? new Uint8Array(0) : Buffer.from(JSON.stringify(b));
}

/**
 * Mounts a Switchyard gateway in an Express app. Mount it before `express.json()` (or use
 * `express.raw()`), so the body reaches the model server byte for byte; after a JSON parser the
 * body is re-serialised.
 * @example
 * ```ts
 * const app = express();
 * app.use(switchyard({ scheduler: picker, endpoints: pool }));
 * app.listen(8080);
 * ```
 * @public
 */
export function switchyard(gateway: GatewayHandler | GatewayOptions): SwitchyardMiddleware {
  const handler = typeof gateway === 'function' ? gateway : createGatewayHandler(gateway);
  const middleware = ((req: ExpressLikeRequest, res: ServerResponse, next: (err?: unknown) => void): void => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    if (!handler.owns(req.method ?? 'GET', q === -1 ? url : url.slice(0, q))) {
      next();
      return;
    }
    const body = preReadBody(req);
    void handler.handle(req, res, body === undefined ? { next: () => { next(); } } : { body, next: () => { next(); } });
  }) as SwitchyardMiddleware;
  Object.defineProperty(middleware, 'gateway', { value: handler });
  return middleware;
}
