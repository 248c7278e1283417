import type { IncomingMessage } from 'node:http';
import { SwitchyardError } from '@switchyard/core';

/**
 * Thrown by {@link readBody} when the client went away before the body was complete; the gateway
 * answers nothing (there is nobody to answer).
 * @public
 */
export class ClientGoneError extends Error {
  constructor() {
    super('client closed the connection before the request body was complete');
    this.name = 'ClientGoneError';
  }
}

/** Receives the outcome of {@link receiveBody}: exactly one of the two calls. */
export interface BodySink {
  /** The whole body. */
  onBody(body: Buffer): void;
  /** `PAYLOAD_TOO_LARGE` or {@link ClientGoneError}. */
  onBodyError(error: SwitchyardError | ClientGoneError): void;
}

/**
 * Reads a request body into one buffer, refusing bodies over `limit` bytes. A declared
 * `content-length` over the limit is refused before reading anything.
 * @throws SwitchyardError `PAYLOAD_TOO_LARGE` (413) naming the limit
 * @throws ClientGoneError when the client disconnects mid-body
 * @public
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    receiveBody(req, limit, { onBody: resolve, onBodyError: reject });
  });
}

/**
 * {@link readBody} with a callback sink instead of a promise (the gateway's per-request path).
 * The sink is called exactly once, possibly synchronously. Listeners are left on `req` once it
 * settled (they are guarded, and `req` is discarded with them), which saves removing four
 * listeners per request.
 */
export function receiveBody(req: IncomingMessage, limit: number, sink: BodySink): void {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) {
    sink.onBodyError(tooLarge(limit, `content-length ${declared}`));
    return;
  }
  if (req.readableEnded) {
    sink.onBody(Buffer.alloc(0));
    return;
  }
  let chunks: Buffer[] | undefined = [];
  let size = 0;
  const fail = (error: SwitchyardError | ClientGoneError): void => {
    if (chunks === undefined) return;
    chunks = undefined;
    sink.onBodyError(error);
  };
  req.on('data', (chunk: Buffer) => {
    if (chunks === undefined) return;
    size += chunk.length;
    if (size > limit) {
      fail(tooLarge(limit, `more than ${limit} bytes received`));
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => {
    if (chunks === undefined) return;
    const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
    chunks = undefined;
    sink.onBody(body);
  });
  req.on('error', () => {
    fail(new ClientGoneError());
  });
  req.on('close', () => {
    if (!req.readableEnded) fail(new ClientGoneError());
  });
}

function tooLarge(limit: number, what: string): SwitchyardError {
  return new SwitchyardError('PAYLOAD_TOO_LARGE', `request body exceeds maxBodyBytes (${limit}): ${what}`);
}
