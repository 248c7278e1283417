import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { decodeContinue, encodeContinue, selectionOf, selects } from './query.js';
import { defaultResourceTypes, discoveryDocuments, groupVersion, typeKey, type ResourceType } from './resources.js';
import { ApiError, FakeStore, type Obj } from './store.js';
import { serveWatch } from './watch-stream.js';

/** Options of {@link startFakeApiServer}. */
export interface FakeApiServerOptions {
  /** Loopback address to bind. @defaultValue '127.0.0.1' */
  readonly host?: string;
  /** Port (0 = any). */
  readonly port?: number;
  /** Resource types served. @defaultValue {@link defaultResourceTypes}() */
  readonly types?: readonly ResourceType[];
}

/** A running fake API server. */
export interface FakeApiServer {
  /** `http://host:port`. */
  readonly url: string;
  readonly port: number;
  /** Objects and history: survives {@link FakeApiServer.restart} like etcd. */
  readonly store: FakeStore;
  /** Requests served, `METHOD path?query` (tests assert what clients sent). */
  readonly requests: string[];
  /** Sends a BOOKMARK on every watch that asked for them. */
  bookmark(): void;
  /** Ends every open watch stream (clients reconnect from their last resourceVersion). */
  endWatches(): void;
  /** Stops listening and drops every connection for `downMs`, then serves again on the same port. */
  restart(downMs: number): Promise<void>;
  close(): Promise<void>;
}

interface Route {
  readonly type: ResourceType;
  readonly resource: string;
  readonly namespace: string | undefined;
  readonly name: string | undefined;
}

const status = (code: number, reason: string, message: string): Record<string, unknown> => ({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: code < 400 ? 'Success' : 'Failure', message, reason, code });

function send(res: ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** `/api/v1/...` or `/apis/<g>/<v>/...` → the resource, namespace and name it addresses. */
function route(store: FakeStore, path: string): Route | undefined {
  const parts = path.split('/').filter((p) => p !== '');
  let group: string;
  let version: string;
  let rest: string[];
  if (parts[0] === 'api') [group, version, rest] = ['', parts[1] ?? '', parts.slice(2)];
  else if (parts[0] === 'apis') [group, version, rest] = [parts[1] ?? '', parts[2] ?? '', parts.slice(3)];
  else return undefined;
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const [plural, name, sub] = rest;
  if (plural === undefined || (sub !== undefined && sub !== 'status') || rest.length > 3) return undefined;
  const resource = typeKey(group, version, plural);
  const type = store.types.get(resource);
  return type === undefined ? undefined : { type, resource, namespace, name };
}

async function readBody(req: IncomingMessage): Promise<Obj> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  try {
    const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new Error('not an object');
    const meta = (body as { metadata?: unknown }).metadata;
    return { ...(body as Record<string, unknown>), metadata: { ...(meta !== null && typeof meta === 'object' ? (meta as Record<string, unknown>) : {}) } };
  } catch (err) {
    throw new ApiError(400, 'BadRequest', `invalid JSON body: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function list(store: FakeStore, r: Route, params: URLSearchParams): Record<string, unknown> {
  const selection = selectionOf(params, r.namespace);
  const token = params.get('continue');
  const cont = token === null || token === '' ? undefined : decodeContinue(token);
  const key = (o: Obj): string => `${String(o.metadata.namespace)}/${String(o.metadata.name)}`;
  const all = store
    .list(r.resource, r.namespace)
    .filter((o) => selects(selection, o))
    .sort((a, b) => (key(a) < key(b) ? -1 : 1))
    .filter((o) => cont === undefined || key(o) > cont.after);
  const limit = Number(params.get('limit') ?? '0');
  const page = limit > 0 ? all.slice(0, limit) : all;
  const rv = cont?.rv ?? store.resourceVersion;
  const last = page[page.length - 1];
  const more = page.length < all.length && last !== undefined;
  const metadata = { resourceVersion: String(rv), ...(more ? { continue: encodeContinue({ rv, after: key(last) }), remainingItemCount: all.length - page.length } : {}) };
  return { kind: `${r.type.kind}List`, apiVersion: groupVersion(r.type), metadata, items: page };
}

/**
 * Starts a fake Kubernetes API server on loopback, faithful enough for `kubectl` and
 * `@kubernetes/client-node` informers: legacy discovery, list (resourceVersion, label and field
 * selectors, limit/continue), watch (chunked JSON lines replayed from a resourceVersion,
 * BOOKMARK on request, ERROR 410 after compaction, timeoutSeconds), POST, PUT with 409 on a stale
 * resourceVersion, JSON merge PATCH and DELETE, errors as `Status` objects. No auth, no protobuf.
 */
export async function startFakeApiServer(options: FakeApiServerOptions = {}): Promise<FakeApiServer> {
  const host = options.host ?? '127.0.0.1';
  const types = options.types ?? defaultResourceTypes();
  const store = new FakeStore(types);
  const docs = discoveryDocuments(types);
  const requests: string[] = [];
  const watches = new Set<{ bookmark: () => void; end: () => void }>();
  const sockets = new Set<Socket>();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    requests.push(`${method} ${url.pathname}${url.search}`);
    if (method === 'GET' && url.pathname === '/version') {
      send(res, 200, { major: '1', minor: '32', gitVersion: 'v1.32.0-switchyard-fake', platform: 'linux/amd64' });
      return;
    }
    const doc = docs.get(url.pathname.replace(/\/$/, ''));
    if (method === 'GET' && doc !== undefined) {
      send(res, 200, doc);
      return;
    }
    const r = route(store, url.pathname);
    if (r === undefined) {
      send(res, 404, status(404, 'NotFound', 'the server could not find the requested resource'));
      return;
    }
    const ns = r.namespace ?? 'default';
    const watch = url.searchParams.get('watch');
    if (method === 'GET' && r.name === undefined && (watch === 'true' || watch === '1')) {
      const timeout = url.searchParams.get('timeoutSeconds');
      const stream = serveWatch(
        store,
        {
          resource: r.resource,
          selection: selectionOf(url.searchParams, r.namespace),
          resourceVersion: url.searchParams.get('resourceVersion') ?? '',
          bookmarks: url.searchParams.get('allowWatchBookmarks') === 'true',
          timeoutSeconds: timeout === null ? undefined : Number(timeout),
          apiVersion: groupVersion(r.type),
          kind: r.type.kind,
        },
        res,
      );
      watches.add(stream);
      res.on('close', () => watches.delete(stream));
      return;
    }
    if (method === 'GET') {
      send(res, 200, r.name === undefined ? list(store, r, url.searchParams) : store.get(r.resource, ns, r.name));
      return;
    }
    if (method === 'POST' && r.name === undefined) {
      send(res, 201, store.create(r.resource, ns, await readBody(req)));
      return;
    }
    if (r.name === undefined) throw new ApiError(405, 'MethodNotAllowed', `${method} needs an object name`);
    if (method === 'PUT') {
      send(res, 200, store.replace(r.resource, ns, r.name, await readBody(req)));
      return;
    }
    if (method === 'PATCH') {
      const type = req.headers['content-type'] ?? '';
      if (!type.startsWith('application/merge-patch+json') && !type.startsWith('application/strategic-merge-patch+json')) {
        throw new ApiError(415, 'UnsupportedMediaType', `the fake API server supports merge patches only, not ${type}`);
      }
      send(res, 200, store.patch(r.resource, ns, r.name, await readBody(req)));
      return;
    }
    if (method === 'DELETE') {
      send(res, 200, store.delete(r.resource, ns, r.name));
      return;
    }
    throw new ApiError(405, 'MethodNotAllowed', `${method} is not supported`);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      const e = err instanceof ApiError ? err : new ApiError(500, 'InternalError', err instanceof Error ? err.message : String(err));
      if (!res.headersSent) send(res, e.code, status(e.code, e.reason, e.message));
      else res.destroy();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const listen = (port: number): Promise<number> =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve((server.address() as AddressInfo).port);
      });
    });
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      for (const w of watches) w.end();
      for (const s of sockets) s.destroy();
      server.close(() => { resolve(); });
    });
  const port = await listen(options.port ?? 0);
  return {
    url: `http://${host}:${port}`,
    port,
    store,
    requests,
    bookmark: () => { for (const w of watches) w.bookmark(); },
    endWatches: () => { for (const w of watches) w.end(); },
    async restart(downMs) {
      await stop();
      await new Promise((r) => setTimeout(r, downMs));
      await listen(port);
    },
    close: stop,
  };
}
