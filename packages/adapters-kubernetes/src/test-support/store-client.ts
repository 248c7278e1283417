import { KubeApiError } from '../client/kube-api-error.js';
import type { KubeClient } from '../client/kube-client.js';
import { ApiError, type FakeStore, type Obj } from './fake-api/store.js';

/** A {@link KubeClient} whose requests go straight to a fake store (no HTTP), for ManualClock tests. */
export interface StoreClient extends KubeClient {
  /** While true every request fails as if the API server were unreachable. */
  down: boolean;
  /** While true every request hangs (never answered), as on a half-open connection. */
  hang: boolean;
}

/** `/api/v1/...` or `/apis/<g>/<v>/namespaces/<ns>/<plural>[/<name>]` → store key, namespace, name. */
function parse(path: string): { resource: string; namespace: string; name: string | undefined } {
  const parts = (path.split('?')[0] ?? '').split('/').filter((p) => p !== '');
  const [group, version, rest] = parts[0] === 'api' ? ['', parts[1], parts.slice(2)] : [parts[1], parts[2], parts.slice(3)];
  if (rest[0] !== 'namespaces' || rest[1] === undefined || rest[2] === undefined) throw new Error(`store client: unsupported path ${path}`);
  return { resource: `${group ?? ''}/${version ?? ''}/${rest[2]}`, namespace: rest[1], name: rest[3] };
}

/** A client for namespaced GET, POST, PUT and DELETE on `store` (lists and watches are not needed by its users). */
export function storeClient(store: FakeStore): StoreClient {
  const client: StoreClient = {
    down: false,
    hang: false,
    server: 'store://',
    contextNamespace: undefined,
    async request<T>(method: string, path: string, body?: unknown): Promise<T> {
      if (client.hang) return new Promise<T>(() => undefined);
      if (client.down) throw new KubeApiError(0, undefined, `${method} ${path}: connect ECONNREFUSED`);
      const { resource, namespace, name } = parse(path);
      try {
        const copy = (o: Obj): T => structuredClone(o) as T;
        if (method === 'GET' && name !== undefined) return copy(store.get(resource, namespace, name));
        if (method === 'POST') return copy(store.create(resource, namespace, structuredClone(body) as Obj));
        if (method === 'PUT' && name !== undefined) return copy(store.replace(resource, namespace, name, structuredClone(body) as Obj));
        if (method === 'DELETE' && name !== undefined) return copy(store.delete(resource, namespace, name));
      } catch (err) {
        if (err instanceof ApiError) throw new KubeApiError(err.code, err.reason, `${method} ${path}: ${String(err.code)} ${err.reason} ${err.message}`);
        throw err;
      }
      throw new Error(`store client: unsupported ${method} ${path}`);
    },
    list: () => Promise.reject(new Error('store client: list is not supported')),
    groupVersions: () => Promise.resolve(new Set<string>()),
    listWatch: () => {
      throw new Error('store client: listWatch is not supported');
    },
  };
  return client;
}
