import type { IncomingMessage, ServerResponse } from 'node:http';
import { CONSOLE_HTML } from './page.js';
import { buildConsoleSnapshot, decisionSummary, type ConsoleOptions } from './snapshot.js';

/**
 * The path the console is served under. @public
 * @category Decision console
 */
export const CONSOLE_PATH = '/console';

/**
 * A `node:http` route handler: answers the console's paths and returns true, or returns false
 * (and writes nothing) for any other path, so a server can chain it before its own routes.
 * @public
 * @category Decision console
 */
export type ConsoleHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

const HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  // The page is self-contained: its script and styles are inline and it only talks to its own API.
  'content-security-policy': "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src data:; base-uri 'none'; frame-ancestors 'none'",
} as const;

function send(res: ServerResponse, status: number, type: string, body: string, head: boolean): void {
  res.writeHead(status, { ...HEADERS, 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(head ? undefined : body);
}

function sendJson(res: ServerResponse, status: number, value: unknown, head: boolean): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value), head);
}

/** A positive integer query parameter, clamped to `max`; `fallback` when absent or invalid. */
function limitOf(query: URLSearchParams, fallback: number, max: number): number {
  const raw = query.get('limit');
  if (raw === null || !/^\d+$/.test(raw)) return fallback;
  return Math.min(Math.max(Number(raw), 0), max);
}

/**
 * Creates the operator console's handler. Routes (GET or HEAD):
 * - `/console`: the page (HTML, inline script, no external assets; polls the API every second);
 * - `/console/api/snapshot[?limit=N]`: {@link ConsoleSnapshot} with the newest N decisions (default 100);
 * - `/console/api/decisions[?limit=N]`: decision summaries, newest first;
 * - `/console/api/decisions/{requestId}`: one decision with its full trace (404 once dropped).
 *
 * The console shows tenants and models, so servers only mount it when asked (`--console`).
 * @public
 * @category Decision console
 */
export function createConsoleHandler(options: ConsoleOptions): ConsoleHandler {
  const capacity = options.decisions.capacity;
  const answer = async (url: string, res: ServerResponse, head: boolean): Promise<void> => {
    const parsed = new URL(url, 'http://console.invalid');
    const path = parsed.pathname.replace(/\/+$/, '');
    if (path === CONSOLE_PATH) send(res, 200, 'text/html; charset=utf-8', CONSOLE_HTML, head);
    else if (path === `${CONSOLE_PATH}/api/snapshot`) sendJson(res, 200, await buildConsoleSnapshot(options, limitOf(parsed.searchParams, 100, capacity)), head);
    else if (path === `${CONSOLE_PATH}/api/decisions`) sendJson(res, 200, { decisions: options.decisions.recent(limitOf(parsed.searchParams, capacity, capacity)).map(decisionSummary) }, head);
    else if (path.startsWith(`${CONSOLE_PATH}/api/decisions/`)) {
      const id = decodeURIComponent(path.slice(`${CONSOLE_PATH}/api/decisions/`.length));
      const record = options.decisions.find(id);
      if (record === undefined) sendJson(res, 404, { error: `no recent decision for request id "${id}" (the console keeps the newest ${String(capacity)})` }, head);
      else sendJson(res, 200, record, head);
    } else sendJson(res, 404, { error: `unknown console path ${path}` }, head);
  };
  return (req, res) => {
    const url = req.url ?? '/';
    if (url !== CONSOLE_PATH && !url.startsWith(`${CONSOLE_PATH}/`) && !url.startsWith(`${CONSOLE_PATH}?`)) return false;
    const method = req.method ?? 'GET';
    const head = method === 'HEAD';
    if (method !== 'GET' && !head) {
      res.setHeader('allow', 'GET, HEAD');
      sendJson(res, 405, { error: `method ${method} not allowed on the console; use GET` }, false);
      return true;
    }
    void answer(req.url ?? '/', res, head).catch((err: unknown) => {
      // A source that throws (a closed pool, a bad id encoding) answers 500; the server stays up.
      if (!res.headersSent) sendJson(res, err instanceof URIError ? 400 : 500, { error: err instanceof Error ? err.message : String(err) }, head);
      else res.destroy();
    });
    return true;
  };
}
