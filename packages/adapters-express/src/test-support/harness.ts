import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request as undiciRequest } from 'undici';
import { createGatewayHandler, type GatewayHandler, type GatewayOptions } from '@switchyard/express';

/** A gateway listening on loopback for a test. */
export interface RunningGateway {
  readonly url: string;
  readonly handler: GatewayHandler;
  readonly server: Server;
  close(): Promise<void>;
}

/** Starts `createGatewayHandler(options)` on 127.0.0.1, port 0. */
export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  const handler = createGatewayHandler(options);
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    handler,
    server,
    close: async () => {
      await handler.close({ graceMs: 1000 });
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => { resolve(); }));
    },
  };
}

/** An `ip:port` where nothing listens (a port that was just released). */
export async function deadAddress(): Promise<string> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => { resolve(); }));
  return `127.0.0.1:${port}`;
}

/** Response of {@link post}. */
export interface PostResult {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  json(): unknown;
}

/** POSTs a JSON (or raw string) body and reads the whole answer. */
export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<PostResult> {
  const r = await undiciRequest(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await r.body.text();
  return { status: r.statusCode, headers: r.headers, text, json: () => JSON.parse(text) as unknown };
}

/** GETs a path and reads the whole answer. */
export async function get(url: string): Promise<PostResult> {
  const r = await undiciRequest(url);
  const text = await r.body.text();
  return { status: r.statusCode, headers: r.headers, text, json: () => JSON.parse(text) as unknown };
}
