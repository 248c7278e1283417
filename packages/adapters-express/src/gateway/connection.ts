import type { Socket } from 'node:net';
import { SwitchyardError } from '@switchyard/core';

const kController = Symbol('switchyard.connection');

type TaggedSocket = Socket & { [kController]?: AbortController };

function controllerOf(socket: Socket): AbortController {
  const s = socket as TaggedSocket;
  let c = s[kController];
  if (c === undefined) {
    const controller = new AbortController();
    c = controller;
    s[kController] = controller;
    socket.once('close', () => {
      controller.abort(new SwitchyardError('REJECTED_CONTEXT_CANCELLED', 'client disconnected'));
    });
  }
  return c;
}

/**
 * The abort signal of a client connection: it aborts (with `REJECTED_CONTEXT_CANCELLED`) when the
 * socket closes. One signal per connection instead of one per request, because an HTTP/1.1
 * request cannot outlive its connection and creating an AbortController costs more than most of
 * a gateway hop. Listeners are removed by their owners (forwarding, flow control) when done.
 * @public
 */
export function connectionSignal(socket: Socket): AbortSignal {
  return controllerOf(socket).signal;
}

/**
 * Aborts a connection's signal with `reason` (graceful shutdown of requests still being
 * scheduled); the connection itself is closed by the server.
 * @public
 */
export function abortConnection(socket: Socket, reason: Error): void {
  controllerOf(socket).abort(reason);
}
