import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A loopback TCP proxy in front of Redis whose link tests can cut (a partition: connections are
 * reset and new ones refused) or stall (a slow Redis: bytes are held back).
 * @internal
 */
export interface TcpProxy {
  readonly port: number;
  readonly url: string;
  cut(): void;
  stall(): void;
  heal(): void;
  close(): Promise<void>;
}

/** Starts a proxy from a free loopback port to `127.0.0.1:targetPort`. @internal */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let mode: 'open' | 'cut' | 'stalled' = 'open';
  // Bytes held back while stalled, in order, with the socket they are for.
  const held: [Socket, Buffer][] = [];
  const forward = (to: Socket) => (chunk: Buffer): void => {
    if (mode === 'stalled') held.push([to, chunk]);
    else to.write(chunk);
  };
  const server: Server = createServer((client) => {
    if (mode === 'cut') {
      client.destroy();
      return;
    }
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.on('data', forward(upstream));
    upstream.on('data', forward(client));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    cut() {
      mode = 'cut';
      for (const s of sockets) s.destroy();
    },
    stall() {
      mode = 'stalled';
    },
    heal() {
      mode = 'open';
      for (const [to, chunk] of held.splice(0)) if (!to.destroyed) to.write(chunk);
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      });
    },
  };
}
