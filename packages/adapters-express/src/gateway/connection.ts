import type { Socket } from 'node:net';
import { SwitchyardError } from '@switchyard/core';

const kConnection = Symbol('switchyard.connection');

/** Something to cut short when its client connection closes. */
export interface ConnectionWatcher {
  /** Called once with `REJECTED_CONTEXT_CANCELLED` (or the shutdown reason). */
  onConnectionClosed(reason: Error): void;
}

/** Per-connection state, created on the first request of a connection. */
class ConnectionState {
  #controller: AbortController | undefined;
  #reason: Error | undefined;
  readonly watchers = new Set<ConnectionWatcher>();

  constructor(socket: Socket) {
    socket.once('close', () => {
      this.close(new SwitchyardError('REJECTED_CONTEXT_CANCELLED', 'client disconnected'));
    });
  }

  get closed(): boolean {
    return this.#reason !== undefined;
  }

  signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#reason !== undefined) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  close(reason: Error): void {
    if (this.#reason !== undefined) return;
    this.#reason = reason;
    this.#controller?.abort(reason);
    for (const w of [...this.watchers]) w.onConnectionClosed(reason);
    this.watchers.clear();
  }
}

function stateOf(socket: Socket): ConnectionState {
  const s = socket as Socket & { [kConnection]?: ConnectionState };
  let state = s[kConnection];
  if (state === undefined) {
    state = new ConnectionState(socket);
    s[kConnection] = state;
  }
  return state;
}

/**
 * The abort signal of a client connection: it aborts (with `REJECTED_CONTEXT_CANCELLED`) when the
 * socket closes. One signal per connection instead of one per request, because an HTTP/1.1
 * request cannot outlive its connection and creating an AbortController costs more than most of
 * a gateway hop. Listeners are removed by their owners (flow control, the picker) when done.
 * @public
 */
export function connectionSignal(socket: Socket): AbortSignal {
  return stateOf(socket).signal();
}

/**
 * Calls `watcher.onConnectionClosed` when the connection closes, until {@link unwatchConnection}.
 * The gateway watches its requests this way rather than with a listener on the connection's
 * `AbortSignal`: adding and removing `EventTarget` listeners is one of the larger costs of a
 * forwarded request, a set insertion is not.
 * @returns false (and does not watch) when the connection is already closed
 */
export function watchConnection(socket: Socket, watcher: ConnectionWatcher): boolean {
  const state = stateOf(socket);
  if (state.closed) return false;
  state.watchers.add(watcher);
  return true;
}

/** Stops watching (idempotent). */
export function unwatchConnection(socket: Socket, watcher: ConnectionWatcher): void {
  stateOf(socket).watchers.delete(watcher);
}

/**
 * True once the connection closed (or shutdown aborted it): the same moment its signal aborts,
 * without `AbortSignal`'s checked getter.
 */
export function connectionClosed(socket: Socket): boolean {
  return stateOf(socket).closed;
}

/**
 * Aborts a connection's signal and watchers with `reason` (graceful shutdown of requests still
 * being scheduled); the connection itself is closed by the server.
 * @public
 */
export function abortConnection(socket: Socket, reason: Error): void {
  stateOf(socket).close(reason);
}
