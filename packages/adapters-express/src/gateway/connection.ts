import type { Socket } from 'node:net';
import { SwitchyardError } from '@switchyard/core';
import { MemberList, type Membership } from './member-list.js';

const kConnection = Symbol('switchyard.connection');

/** Something to cut short when its client connection closes. */
export interface ConnectionWatcher {
  /** Called once with `REJECTED_CONTEXT_CANCELLED` (or the shutdown reason). */
  onConnectionClosed(reason: Error): void;
}

/**
 * A client connection as the gateway sees it, created on the connection's first request: one
 * abort signal for all its requests (an HTTP/1.1 request cannot outlive its connection, and an
 * `AbortController` per request costs more than most of a gateway hop), and a set of watchers to
 * cut short when it closes. A request being forwarded is watched through the list rather than
 * with a listener on the signal: adding and removing `EventTarget` listeners is one of the
 * larger costs of a forwarded request, a list insertion is not.
 */
export class Connection {
  #controller: AbortController | undefined;
  #reason: Error | undefined;
  readonly #watchers = new MemberList<ConnectionWatcher>();

  constructor(socket: Socket) {
    socket.once('close', () => {
      this.close(new SwitchyardError('REJECTED_CONTEXT_CANCELLED', 'client disconnected'));
    });
  }

  /** True once the connection closed (or shutdown aborted it), the moment its signal aborts. */
  get closed(): boolean {
    return this.#reason !== undefined;
  }

  /** The connection's abort signal (created on first use). */
  signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#reason !== undefined) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /**
   * Calls `watcher.onConnectionClosed` when the connection closes, until {@link Connection.unwatch}.
   * @returns the handle to stop watching with, or undefined (and no watch) when the connection
   *   is already closed
   */
  watch(watcher: ConnectionWatcher): Membership<ConnectionWatcher> | undefined {
    if (this.closed) return undefined;
    return this.#watchers.add(watcher);
  }

  /** Stops watching (idempotent). */
  unwatch(watch: Membership<ConnectionWatcher> | undefined): void {
    this.#watchers.remove(watch);
  }

  /**
   * Aborts the signal and the watchers with `reason` (graceful shutdown of requests still being
   * scheduled); the connection itself is closed by the server.
   */
  close(reason: Error): void {
    if (this.#reason !== undefined) return;
    this.#reason = reason;
    this.#controller?.abort(reason);
    for (const w of this.#watchers.values()) w.onConnectionClosed(reason);
    this.#watchers.clear();
  }
}

/**
 * Lets a client that half-closes its connection after a complete request (`shutdown(SHUT_WR)`,
 * as `curl --no-keepalive` scripts and some proxies do) still get its response. node's HTTP
 * server ends such a socket at once unless its `httpAllowHalfOpen` is set; there is no public
 * option for it, and the server is often the framework's (Express, Fastify), so the gateway sets
 * it on the server that hands it a request. With it set, node still ends the socket once the
 * last response is written, and a half-close mid-body is still a parse error that closes it.
 */
export function keepHalfOpen(socket: Socket): void {
  const server = (socket as Socket & { server?: { httpAllowHalfOpen?: unknown } }).server;
  if (server !== undefined && server.httpAllowHalfOpen === false) server.httpAllowHalfOpen = true;
}

/** The {@link Connection} of a client socket. */
export function connectionOf(socket: Socket): Connection {
  const s = socket as Socket & { [kConnection]?: Connection };
  let connection = s[kConnection];
  if (connection === undefined) {
    connection = new Connection(socket);
    s[kConnection] = connection;
  }
  return connection;
}

/**
 * The abort signal of a client connection: it aborts (with `REJECTED_CONTEXT_CANCELLED`) when the
 * socket closes. One signal per connection instead of one per request, because an HTTP/1.1
 * request cannot outlive its connection and creating an AbortController costs more than most of
 * a gateway hop. Listeners are removed by their owners (flow control, the picker) when done.
 * @public
 */
export function connectionSignal(socket: Socket): AbortSignal {
  return connectionOf(socket).signal();
}
