import type { IncomingMessage, ServerResponse } from 'node:http';
import { createGatewayHandler, type GatewayHandler } from '../gateway/handler.js';
import type { GatewayOptions } from '../gateway/options.js';

/**
 * A request as Express (or Connect) hands it over: a node request, possibly with a body already
 * read by a body parser.
 * @public
 * @category Framework adapters
 */
export type ExpressLikeRequest = IncomingMessage & { body?: unknown; _body?: boolean };

/**
 * Express/Connect middleware serving the gateway's routes and calling `next()` for everything
 * else. Its signature uses node's types only, so the library needs nothing from `express` at
 * runtime or in its typings; Express accepts it as a `RequestHandler`.
 * @public
 * @category Framework adapters
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
  if (b === undefined || b === null) return new Uint8Array(0);
  warnParsedBody();
  return Buffer.from(JSON.stringify(b));
}

let warnedParsedBody = false;

/**
 * A JSON body parser in front of the gateway answers every prompt over its limit itself, with
 * its own error page and not the error contract (`express.json()` caps bodies at 100kb by
 * default), and the gateway only sees re-serialised JSON. Nothing is wrong with the request at
 * hand, so this warns once per process instead of failing it.
 */
function warnParsedBody(): void {
  if (warnedParsedBody) return;
  warnedParsedBody = true;
  process.emitWarning(
    'a JSON body parser (e.g. express.json()) ran before the Switchyard middleware: prompts over its limit (100kb by default) get its own 413 page instead of the gateway, and bodies are re-serialised. Mount switchyard() before express.json(), or raise the parser limit.',
    { code: 'SWITCHYARD_PARSED_BODY' },
  );
}

/**
 * Mounts a Switchyard gateway in an Express app. Mount it BEFORE `express.json()` (or use
 * `express.raw()`), so the body reaches the model server byte for byte. Behind a JSON parser the
 * body is re-serialised, and prompts over the parser's limit (`express.json()`: 100kb by
 * default) are refused by the parser with Express's HTML 413 page, never reaching the gateway; the
 * middleware then emits a `SWITCHYARD_PARSED_BODY` process warning once.
 * @example
 * ```ts
 * const app = express();
 * app.use(switchyard({ scheduler: picker, endpoints: pool }));
 * app.listen(8080);
 * ```
 * @public
 * @category Framework adapters
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
