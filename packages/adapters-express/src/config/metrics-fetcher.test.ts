import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { afterEach, describe, expect, it } from 'vitest';
import { createUndiciMetricsFetcher, type ClosableMetricsFetcher } from '@switchyard/express';
import { TEST_CERT, TEST_KEY } from '../test-support/tls-fixture.js';

const EXPOSITION = '# TYPE vllm:num_requests_waiting gauge\nvllm:num_requests_waiting{model_name="m"} 3\n';

let server: Server | undefined;
let fetcher: ClosableMetricsFetcher | undefined;

/** Closes a test server, its kept-alive connections included. */
async function closeServer(s: Server | HttpsServer | undefined): Promise<void> {
  if (s === undefined) return;
  s.closeAllConnections();
  await new Promise<void>((resolve) => {
    s.close(() => {
      resolve();
    });
  });
}

afterEach(async () => {
  await fetcher?.close();
  fetcher = undefined;
  await closeServer(server);
  server = undefined;
});

/** A metrics server; returns its base URL and the remote ports of the requests it received. */
async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; ports: number[] }> {
  const ports: number[] = [];
  server = createServer((req, res) => {
    ports.push(req.socket.remotePort ?? 0);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`, ports };
}

describe('createUndiciMetricsFetcher', () => {
  it('returns the body of a 200 and polls over one kept-alive connection', async () => {
    const { url, ports } = await serve((req, res) => {
      expect(req.headers.accept).toContain('text/plain');
      res.end(EXPOSITION);
    });
    fetcher = createUndiciMetricsFetcher();
    for (let i = 0; i < 3; i++) expect(await fetcher(url, new AbortController().signal)).toBe(EXPOSITION);
    expect(new Set(ports).size).toBe(1);
  });

  it('rejects a non-200 answer naming the status, and keeps the connection usable', async () => {
    let fail = true;
    const { url, ports } = await serve((_req, res) => {
      res.statusCode = fail ? 503 : 200;
      res.end(fail ? 'overloaded' : EXPOSITION);
    });
    fetcher = createUndiciMetricsFetcher();
    await expect(fetcher(url, new AbortController().signal)).rejects.toThrow('HTTP 503');
    fail = false;
    expect(await fetcher(url, new AbortController().signal)).toBe(EXPOSITION);
    expect(new Set(ports).size).toBe(1);
  });

  it('rejects a body larger than maxBytes', async () => {
    const { url } = await serve((_req, res) => {
      res.end('x'.repeat(4096));
    });
    fetcher = createUndiciMetricsFetcher({ maxBytes: 1024 });
    await expect(fetcher(url, new AbortController().signal)).rejects.toThrow('larger than 1024 bytes');
  });

  it('rejects promptly when the signal aborts, before or during the request', async () => {
    const during = new AbortController();
    // Never answers; aborts the poll once the request has arrived.
    const { url } = await serve(() => {
      during.abort(new Error('scrape timed out'));
    });
    fetcher = createUndiciMetricsFetcher();
    const before = new AbortController();
    before.abort(new Error('stopped'));
    await expect(fetcher(url, before.signal)).rejects.toThrow('stopped');
    await expect(fetcher(url, during.signal)).rejects.toThrow('scrape timed out');
  });

  it('rejects when nothing listens', async () => {
    const { url } = await serve(() => undefined);
    await new Promise<void>((resolve) => {
      server?.close(() => {
        resolve();
      });
    });
    server = undefined;
    fetcher = createUndiciMetricsFetcher();
    await expect(fetcher(url, new AbortController().signal)).rejects.toThrow();
  });

  describe('over https', () => {
    let tlsServer: HttpsServer | undefined;
    afterEach(async () => {
      await closeServer(tlsServer);
      tlsServer = undefined;
    });
    const serveTls = async (): Promise<string> => {
      tlsServer = createHttpsServer({ cert: TEST_CERT, key: TEST_KEY }, (_req, res) => res.end(EXPOSITION));
      await new Promise<void>((resolve) => tlsServer?.listen(0, '127.0.0.1', resolve));
      return `https://127.0.0.1:${(tlsServer.address() as AddressInfo).port}/metrics`;
    };

    it('trusts the CA it is given', async () => {
      const url = await serveTls();
      fetcher = createUndiciMetricsFetcher({ tls: { ca: TEST_CERT } });
      expect(await fetcher(url, new AbortController().signal)).toBe(EXPOSITION);
    });

    it('verifies the certificate unless told not to', async () => {
      const url = await serveTls();
      fetcher = createUndiciMetricsFetcher({ tls: {} });
      await expect(fetcher(url, new AbortController().signal)).rejects.toThrow(/self-signed certificate/);
      await fetcher.close();
      fetcher = createUndiciMetricsFetcher({ tls: { rejectUnauthorized: false } });
      expect(await fetcher(url, new AbortController().signal)).toBe(EXPOSITION);
    });
  });
});
