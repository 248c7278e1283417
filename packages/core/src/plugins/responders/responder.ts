import type { Endpoint } from '../../endpoints/types.js';
import type { Plugin } from '../../scheduling/plugins.js';

/**
 * A request line as a responder sees it: only requests without a body reach responders (llm-d's
 * `RequestLine`).
 * @public
 * @category Built-in plugins
 */
export interface RequestLine {
  /** HTTP method, upper case. */
  readonly method: string;
  /** Path without the query string. */
  readonly path: string;
}

/**
 * A reply a responder produced locally, sent to the client instead of routing the request.
 * @public
 * @category Built-in plugins
 */
export interface LocalResponse {
  /** HTTP status. */
  readonly status: number;
  /** Response headers (lower-case names). */
  readonly headers: Readonly<Record<string, string>>;
  /** Response body. */
  readonly body: string;
}

/**
 * A plugin that answers some body-less requests itself (llm-d's request-control `Responder`),
 * e.g. `models-responder` for `GET /v1/models`. Adapters ask every responder in config order
 * before routing a body-less request; the first one that does not decline answers.
 * @public
 * @category Built-in plugins
 */
export interface Responder extends Plugin {
  /**
   * The reply, or undefined to decline (the request is routed as usual).
   * @throws SwitchyardError to answer with the error contract (e.g. 503 while nothing is known)
   */
  respond(request: RequestLine, endpoints: readonly Endpoint[]): LocalResponse | undefined;
}

/**
 * True when `p` implements {@link Responder}. @public
 * @category Built-in plugins
 */
export function isResponder(p: Plugin): p is Responder {
  return typeof (p as Partial<Responder>).respond === 'function';
}

/**
 * The first reply of `responders` to `request`, or undefined when all decline.
 * @throws SwitchyardError what a responder threw
 * @public
 * @category Built-in plugins
 */
export function localResponse(responders: readonly Responder[], request: RequestLine, endpoints: readonly Endpoint[]): LocalResponse | undefined {
  for (const r of responders) {
    const reply = r.respond(request, endpoints);
    if (reply !== undefined) return reply;
  }
  return undefined;
}
