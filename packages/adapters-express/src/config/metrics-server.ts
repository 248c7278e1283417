import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { mergeExpositions } from '../metrics/merge.js';

/**
 * A request listener serving only `GET /metrics`: the given registries merged into one
 * exposition (the gateway's first). Used for `gateway.metricsListen`, so the metrics, which name
 * models and tenants, are not readable from the client port.
 * @public
 */
export function metricsListener(first: Registry, others: readonly Registry[]): RequestListener {
  const registries = [...new Set([first, ...others])];
  return (req: IncomingMessage, res: ServerResponse): void => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('only GET /metrics is served here\n');
      return;
    }
    Promise.all(registries.map((r) => r.metrics())).then(
      (texts) => {
        const body = texts.length === 1 ? (texts[0] ?? '') : mergeExpositions(texts);
        res.writeHead(200, { 'content-type': first.contentType, 'content-length': Buffer.byteLength(body) });
        res.end(body);
      },
      (err: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`metrics failed: ${err instanceof Error ? err.message : String(err)}\n`);
      },
    );
  };
}

/** Listens on `port`/`host`; resolves with the server's URL. */
export async function listenOn(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  return `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`;
}
