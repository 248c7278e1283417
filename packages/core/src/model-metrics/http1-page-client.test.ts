import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Http1PageClient } from './http1-page-client.js';

/** A raw TCP server answering every request (a blank line ends one) with `respond`'s bytes, written in `pieces`. */
async function rawServer(respond: (n: number) => string | Buffer, pieces = 1): Promise<{ url: string; connections: () => number; server: Server; sockets: Socket[] }> {
  let requests = 0;
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    let pending = '';
    socket.on('data', (d) => {
      pending += d.toString('latin1');
      while (pending.includes('\r\n\r\n')) {
        pending = pending.slice(pending.indexOf('\r\n\r\n') + 4);
        const bytes = Buffer.from(respond(requests++));
        const size = Math.ceil(bytes.length / pieces);
        // Each piece in its own write, a turn apart, so the client sees split reads.
        let at = 0;
        const next = (): void => {
          if (at >= bytes.length || socket.destroyed) return;
          socket.write(bytes.subarray(at, at + size));
          at += size;
          setImmediate(next);
        };
        next();
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/metrics`, connections: () => sockets.length, server, sockets };
}

const ok = (body: string): string => `HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const never = new AbortController().signal;
const servers: Server[] = [];
const clients: Http1PageClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => { s.close(r); })));
});
async function setup(respond: (n: number) => string | Buffer, pieces = 1, maxBytes = 1 << 20) {
  const s = await rawServer(respond, pieces);
  servers.push(s.server);
  const client = new Http1PageClient(maxBytes);
  clients.push(client);
  return { ...s, client, get: async () => (await client.fetch(s.url, never)).toString('utf8') };
}

describe('Http1PageClient', () => {
  it('reads Content-Length bodies split across reads and reuses one connection', async () => {
    const page = (n: number): string => `# TYPE m gauge\nm ${n}\n`.repeat(200);
    const s = await setup((n) => ok(page(n)), 7);
    for (let i = 0; i < 3; i++) expect(await s.get()).toBe(page(i));
    expect(s.connections()).toBe(1);
  });

  it('decodes chunked bodies whose size lines are split, with extensions and trailers', async () => {
    const body = 'm 1\n'.repeat(50);
    const chunked = `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${(30).toString(16)};ext=1\r\n${body.slice(0, 30)}\r\n${(body.length - 30).toString(16)}\r\n${body.slice(30)}\r\n0\r\nX-Trailer: y\r\n\r\n`;
    const s = await setup(() => chunked, 13);
    expect(await s.get()).toBe(body);
    expect(await s.get()).toBe(body);
    expect(s.connections()).toBe(1);
  });

  it('reads a body delimited by the connection closing, and reconnects for the next fetch', async () => {
    const s = await setup(() => 'HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nm 1\n');
    s.server.on('connection', (socket) => { socket.on('data', () => setImmediate(() => socket.end())); });
    expect(await s.get()).toBe('m 1\n');
    expect(await s.get()).toBe('m 1\n');
    expect(s.connections()).toBe(2);
  });

  it('rejects a non-200 status and a malformed response, then works on a fresh connection', async () => {
    const s = await setup((n) => (n === 0 ? 'HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n' : n === 1 ? 'SSH-2.0-OpenSSH\r\n\r\n' : ok('m 2\n')));
    await expect(s.get()).rejects.toThrow('HTTP 503');
    await expect(s.get()).rejects.toThrow('malformed HTTP response');
    expect(await s.get()).toBe('m 2\n');
  });

  it('rejects a body over maxBytes, whether announced or chunked', async () => {
    const big = 'x'.repeat(5000);
    const s = await setup((n) => (n === 0 ? ok(big) : `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1388\r\n${big}\r\n0\r\n\r\n`), 3, 4096);
    await expect(s.get()).rejects.toThrow('larger than 4096 bytes');
    await expect(s.get()).rejects.toThrow('larger than 4096 bytes');
  });

  it('rejects promptly when aborted mid-response, and when the server drops the connection', async () => {
    const s = await setup((n) => (n === 0 ? 'HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nm 1\n' : ok('m 3\n')));
    const abort = new AbortController();
    const pending = s.client.fetch(s.url, abort.signal);
    setTimeout(() => { abort.abort(new Error('timed out after 5 ms')); }, 5);
    await expect(pending).rejects.toThrow('timed out after 5 ms');
    expect(await s.get()).toBe('m 3\n');
    const dropping = await setup(() => 'HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial');
    dropping.server.on('connection', (socket) => { socket.on('data', () => setImmediate(() => socket.destroy())); });
    await expect(dropping.get()).rejects.toThrow('connection closed before the response ended');
  });

  it('reports a refused connection as a failed fetch', async () => {
    const s = await setup(() => ok(''));
    const port = (s.server.address() as AddressInfo).port;
    await new Promise((r) => { s.server.close(r); });
    servers.length = 0;
    await expect(s.client.fetch(`http://127.0.0.1:${port}/metrics`, never)).rejects.toThrow(/ECONNREFUSED|closed/);
  });
});
