import type { ServerResponse } from 'node:http';
import { selects, type Selection } from './query.js';
import type { FakeStore, Obj, StoreEvent } from './store.js';

/** Options of one watch request. */
export interface WatchRequest {
  readonly resource: string;
  readonly selection: Selection;
  /** `resourceVersion` query parameter: '' or '0' starts with the current state as ADDED events. */
  readonly resourceVersion: string;
  readonly bookmarks: boolean;
  readonly timeoutSeconds: number | undefined;
  readonly apiVersion: string;
  readonly kind: string;
}

const line = (res: ServerResponse, type: string, object: unknown): void => {
  res.write(`${JSON.stringify({ type, object })}\n`);
};

/** How a store event looks to a watch with a selection (leaving the selection is a DELETED). */
function visible(e: StoreEvent, s: Selection): { type: string; object: Obj } | undefined {
  const now = selects(s, e.object);
  if (e.type !== 'MODIFIED') return now ? { type: e.type, object: e.object } : undefined;
  const before = e.old !== undefined && selects(s, e.old);
  if (now) return { type: before ? 'MODIFIED' : 'ADDED', object: e.object };
  return before ? { type: 'DELETED', object: e.object } : undefined;
}

/**
 * Serves one watch as chunked JSON lines: the replay from the requested resourceVersion (or the
 * current state), a BOOKMARK when asked for, then live events until the timeout, the client
 * leaving or `end()`. A resourceVersion older than the last compaction gets an in-stream ERROR
 * 410 Expired and the stream ends, as the real API server does.
 * @returns a function that sends a BOOKMARK (when requested) and one that ends the stream
 */
export function serveWatch(store: FakeStore, w: WatchRequest, res: ServerResponse): { bookmark: () => void; end: () => void } {
  res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked', 'cache-control': 'no-cache' });
  // kube-apiserver flushes the head at once (serveWatch); a client only holds a watch it can
  // abort once the head arrived (client-node's ListWatch.stop() cannot cancel a pending one).
  res.flushHeaders();
  const bookmark = (): void => {
    if (w.bookmarks && !res.writableEnded) line(res, 'BOOKMARK', { kind: w.kind, apiVersion: w.apiVersion, metadata: { resourceVersion: String(store.resourceVersion) } });
  };
  const end = (): void => {
    unsubscribe();
    clearTimeout(timer);
    if (!res.writableEnded) res.end();
  };
  let unsubscribe = (): void => undefined;
  let timer: NodeJS.Timeout | undefined;
  const from = w.resourceVersion === '' || w.resourceVersion === '0' ? undefined : Number(w.resourceVersion);
  if (from !== undefined && (!Number.isFinite(from) || from < store.compactedAt)) {
    line(res, 'ERROR', { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `too old resource version: ${w.resourceVersion} (${store.compactedAt})`, reason: 'Expired', code: 410 });
    res.end();
    return { bookmark, end };
  }
  if (from === undefined) {
    for (const o of store.list(w.resource, w.selection.namespace)) if (selects(w.selection, o)) line(res, 'ADDED', o);
  } else {
    for (const e of store.since(from)) {
      if (e.resource !== w.resource) continue;
      const v = visible(e, w.selection);
      if (v !== undefined) line(res, v.type, v.object);
    }
  }
  bookmark();
  unsubscribe = store.subscribe((e) => {
    if (e.resource !== w.resource || res.writableEnded) return;
    const v = visible(e, w.selection);
    if (v !== undefined) line(res, v.type, v.object);
  });
  if (w.timeoutSeconds !== undefined) timer = setTimeout(end, w.timeoutSeconds * 1000);
  res.on('close', end);
  return { bookmark, end };
}
