import { Agent, get } from 'node:http';
import { Agent as TlsAgent, get as tlsGet } from 'node:https';
import { Http1PageClient } from './http1-page-client.js';

/**
 * Fetches a `/metrics` page: resolves with the body text of a 200 response, rejects otherwise.
 * Must stop and reject promptly when `signal` aborts (the scraper aborts on timeout and on stop).
 * @public
 * @category Model-server metrics
 */
export type MetricsFetcher = (url: string, signal: AbortSignal) => Promise<string>;

/**
 * Options of {@link createHttpMetricsFetcher}.
 * @public
 * @category Model-server metrics
 */
export interface HttpMetricsFetcherOptions {
  /** Largest accepted body. @defaultValue 16 MiB */
  readonly maxBytes?: number;
  /** Keep-alive sockets per host. @defaultValue 2 */
  readonly maxSocketsPerHost?: number;
  /** TLS settings for `https` URLs. @defaultValue Node's defaults (verify against its root CAs) */
  readonly tls?: MetricsTlsOptions;
}

/**
 * TLS settings of a metrics fetcher, as llm-d's `metrics-data-source` gives them
 * (`insecureSkipVerify`, `caCertPath`, `clientCertPath` + `clientKeyPath`), read into memory
 * (see {@link readMetricsTls}).
 * @public
 * @category Model-server metrics
 */
export interface MetricsTlsOptions {
  /** Verify the server certificate. @defaultValue true */
  readonly rejectUnauthorized?: boolean;
  /** Trusted CA certificates (PEM), replacing Node's default roots. */
  readonly ca?: string | Buffer;
  /** Client certificate (PEM) for mutual TLS. */
  readonly cert?: string | Buffer;
  /** Client private key (PEM) for mutual TLS. */
  readonly key?: string | Buffer;
}

/**
 * A {@link MetricsFetcher} over `node:http` and `node:https` with keep-alive agents (polling every
 * 50 ms would otherwise open a connection per poll). Call `close()` to drop idle sockets.
 * @public
 * @category Model-server metrics
 */
export interface HttpMetricsFetcher extends MetricsFetcher {
  /**
   * The page as bytes, without decoding it: for `http` URLs a view of the connection's buffer,
   * reused by the next fetch of the same URL (read it before then). The scraper uses this.
   */
  readonly fetchBytes: (url: string, signal: AbortSignal) => Promise<Buffer>;
  /** Destroys the agent's sockets. */
  close(): void;
}

/**
 * Creates the default fetcher of {@link MetricsScraper}: plain `http` over a minimal keep-alive
 * HTTP/1.1 client (one connection per URL, one reused body buffer per connection), `https` over
 * `node:https` with a keep-alive agent.
 * @public
 * @category Model-server metrics
 */
export function createHttpMetricsFetcher(options: HttpMetricsFetcherOptions = {}): HttpMetricsFetcher {
  const maxBytes = options.maxBytes ?? 16 * 1024 * 1024;
  const maxSockets = options.maxSocketsPerHost ?? 2;
  const agent = new Agent({ keepAlive: true, maxSockets });
  const plain = new Http1PageClient(maxBytes);
  let tlsAgent: TlsAgent | undefined;
  const fetchBytes = (url: string, signal: AbortSignal): Promise<Buffer> => (url.startsWith('http:') ? plain.fetch(url, signal) : nodeFetch(url, signal));
  const nodeFetch = (url: string, signal: AbortSignal): Promise<Buffer> =>
    new Promise<Buffer>((resolve, reject) => {
      const tls = url.startsWith('https:');
      if (tls) tlsAgent ??= new TlsAgent({ keepAlive: true, maxSockets, ...options.tls });
      const request = { agent: tls ? tlsAgent : agent, signal, headers: { accept: 'text/plain;version=0.0.4;q=1,*/*;q=0.1' } };
      const req = (tls ? tlsGet : get)(url, request, (res) => {
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
          resolve(Buffer.concat(chunks));
        });
        res.on('error', reject);
      });
      req.on('error', reject);
    });
  const fetcher = async (url: string, signal: AbortSignal): Promise<string> => (await fetchBytes(url, signal)).toString('utf8');
  return Object.assign(fetcher, {
    fetchBytes,
    close: () => {
      plain.close();
      agent.destroy();
      tlsAgent?.destroy();
    },
  });
}
