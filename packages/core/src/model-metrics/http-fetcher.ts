import { Agent, get } from 'node:http';

/**
 * Fetches a `/metrics` page: resolves with the body text of a 200 response, rejects otherwise.
 * Must stop and reject promptly when `signal` aborts (the scraper aborts on timeout and on stop).
 * @public
 */
export type MetricsFetcher = (url: string, signal: AbortSignal) => Promise<string>;

/**
 * Options of {@link createHttpMetricsFetcher}.
 * @public
 */
export interface HttpMetricsFetcherOptions {
  /** Largest accepted body. @defaultValue 16 MiB */
  readonly maxBytes?: number;
  /** Keep-alive sockets per host. @defaultValue 2 */
  readonly maxSocketsPerHost?: number;
}

/**
 * A {@link MetricsFetcher} over `node:http` with a keep-alive agent (polling every 50 ms would
 * otherwise open a connection per poll). Call `close()` to drop idle sockets.
 * @public
 */
export interface HttpMetricsFetcher extends MetricsFetcher {
  /** Destroys the agent's sockets. */
  close(): void;
}

/**
 * Creates the default fetcher of {@link MetricsScraper}.
 * @public
 */
export function createHttpMetricsFetcher(options: HttpMetricsFetcherOptions = {}): HttpMetricsFetcher {
  const maxBytes = options.maxBytes ?? 16 * 1024 * 1024;
  const agent = new Agent({ keepAlive: true, maxSockets: options.maxSocketsPerHost ?? 2 });
  const fetcher = (url: string, signal: AbortSignal): Promise<string> =>
    new Promise<string>((resolve, reject) => {
      const req = get(url, { agent, signal, headers: { accept: 'text/plain;version=0.0.4;q=1,*/*;q=0.1' } }, (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          reject(new Error(`HTTP ${res.statusCode ?? 0}`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            req.destroy(new Error(`response larger than ${maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          resolve(Buffer.concat(chunks).toString('utf8'));
        });
        res.on('error', reject);
      });
      req.on('error', reject);
    });
  return Object.assign(fetcher, { close: () => { agent.destroy(); } });
}
