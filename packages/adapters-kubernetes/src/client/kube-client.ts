import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { SwitchyardError } from '@switchyard/core';
import { KubeApiError } from './kube-api-error.js';
import type { KubeObject } from '../resources/types.js';

/**
 * How to reach the API server: an explicit kubeconfig file, else `KUBECONFIG`, `~/.kube/config`
 * or the in-cluster service account (client-node's default loading order).
 * @public
 * @category API client
 */
export interface KubeClientOptions {
  /** kubeconfig file (`--kubeconfig`). */
  readonly kubeconfig?: string | undefined;
  /** Per-request timeout of lists and writes (watches are long-lived). @defaultValue 10000 */
  readonly requestTimeoutMs?: number;
}

/**
 * A list's items and the resourceVersion a watch continues from. @public
 * @category API client
 */
export interface ListResult<T> {
  readonly items: T[];
  readonly resourceVersion: string;
}

/**
 * What the informers of client-node look like to this package. @internal
 * @category API client
 */
export interface ListWatchLike<T> {
  on(verb: 'add' | 'update' | 'delete', cb: (obj: T) => void): void;
  on(verb: 'error', cb: (err: unknown) => void): void;
  on(verb: 'connect', cb: () => void): void;
  start(): Promise<void>;
  stop(): Promise<void>;
  list(namespace?: string): T[];
}

/**
 * A Kubernetes API client over `@kubernetes/client-node` (loaded on first use; an optional peer
 * dependency): JSON requests with the kubeconfig's credentials, paged lists, and client-node's
 * ListWatch informers.
 * @public
 * @category API client
 */
export interface KubeClient {
  /** The API server URL. */
  readonly server: string;
  /** Namespace of the kubeconfig's current context, if it names one. */
  readonly contextNamespace: string | undefined;
  /** Sends a JSON request. @throws KubeApiError on a non-2xx answer or a transport error */
  request<T>(method: string, path: string, body?: unknown, contentType?: string): Promise<T>;
  /** Lists every page (`limit` 500 + `continue`). */
  list<T extends KubeObject>(path: string, query?: { labelSelector?: string; fieldSelector?: string }): Promise<ListResult<T>>;
  /** The API group/versions the server serves (`/apis` discovery), e.g. `llm-d.ai/v1alpha2`. */
  groupVersions(): Promise<Set<string>>;
  /** @internal A client-node ListWatch on `path` whose lists come from `listFn`. */
  listWatch<T extends KubeObject>(path: string, listFn: () => Promise<{ items: T[]; metadata: { resourceVersion: string } }>, labelSelector?: string, fieldSelector?: string): ListWatchLike<T>;
}

type ClientNode = typeof import('@kubernetes/client-node');

async function importClientNode(): Promise<ClientNode> {
  try {
    return await import('@kubernetes/client-node');
  } catch (err) {
    throw new SwitchyardError('CONFIG_INVALID', 'Kubernetes discovery needs the optional peer dependency @kubernetes/client-node (npm install @kubernetes/client-node@1.4.0)', { cause: err });
  }
}

/**
 * Loads the kubeconfig and returns a client.
 * @throws SwitchyardError `CONFIG_INVALID` when client-node is missing or no cluster is configured
 * @public
 * @category API client
 */
export async function createKubeClient(options: KubeClientOptions = {}): Promise<KubeClient> {
  const k8s = await importClientNode();
  const kc = new k8s.KubeConfig();
  try {
    if (options.kubeconfig !== undefined) kc.loadFromFile(options.kubeconfig);
    else kc.loadFromDefault();
  } catch (err) {
    throw new SwitchyardError('CONFIG_INVALID', `--kubeconfig ${options.kubeconfig ?? '(default)'}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  const cluster = kc.getCurrentCluster();
  if (cluster === null) throw new SwitchyardError('CONFIG_INVALID', `--kubeconfig ${options.kubeconfig ?? '(default)'}: no current cluster`);
  const server = cluster.server.replace(/\/$/, '');
  const timeoutMs = options.requestTimeoutMs ?? 10_000;
  const context = kc.getContextObject(kc.getCurrentContext());

  const request = async <T>(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<T> => {
    const url = new URL(server + path);
    const opts: RequestOptions & { headers: Record<string, string> } = { method, headers: { accept: 'application/json' } };
    await kc.applyToHTTPSOptions(opts);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    if (payload !== undefined) {
      opts.headers['content-type'] = contentType;
      opts.headers['content-length'] = String(Buffer.byteLength(payload));
    }
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<T>((resolve, reject) => {
      const req = send(url, { ...opts, timeout: timeoutMs }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (err) => { reject(new KubeApiError(0, undefined, `${method} ${path}: ${err.message}`, err)); });
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = text === '' ? {} : JSON.parse(text);
          } catch {
            json = { message: text.slice(0, 200) };
          }
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve(json as T);
          else {
            const s = json as { reason?: string; message?: string };
            reject(new KubeApiError(status, s.reason, `${method} ${path}: ${String(status)} ${s.reason ?? ''} ${s.message ?? ''}`.trim()));
          }
        });
      });
      req.on('timeout', () => req.destroy(new Error(`timed out after ${String(timeoutMs)} ms`)));
      req.on('error', (err) => { reject(new KubeApiError(0, undefined, `${method} ${path}: ${err.message}`, err)); });
      req.end(payload);
    });
  };

  return {
    server,
    contextNamespace: context?.namespace,
    request,
    async list<T extends KubeObject>(path: string, query: { labelSelector?: string; fieldSelector?: string } = {}): Promise<ListResult<T>> {
      const items: T[] = [];
      let token = '';
      let resourceVersion = '';
      do {
        const q = new URLSearchParams({ limit: '500' });
        if (query.labelSelector !== undefined && query.labelSelector !== '') q.set('labelSelector', query.labelSelector);
        if (query.fieldSelector !== undefined) q.set('fieldSelector', query.fieldSelector);
        if (token !== '') q.set('continue', token);
        const page = await request<{ items?: T[]; metadata?: { resourceVersion?: string; continue?: string } }>('GET', `${path}?${q.toString()}`);
        items.push(...(page.items ?? []));
        // Every page carries the first page's resourceVersion (the list's snapshot).
        resourceVersion = page.metadata?.resourceVersion ?? resourceVersion;
        token = page.metadata?.continue ?? '';
      } while (token !== '');
      return { items, resourceVersion };
    },
    async groupVersions() {
      const doc = await request<{ groups?: { versions?: { groupVersion: string }[] }[] }>('GET', '/apis');
      return new Set((doc.groups ?? []).flatMap((g) => (g.versions ?? []).map((v) => v.groupVersion)));
    },
    listWatch(path, listFn, labelSelector, fieldSelector) {
      const watch = new k8s.Watch(kc);
      return new k8s.ListWatch(path, watch, listFn as never, false, labelSelector, fieldSelector) as unknown as ListWatchLike<never>;
    },
  };
}
