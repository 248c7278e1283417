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

/**
 * Reads a request body into one buffer, refusing bodies over `limit` bytes. A declared
 * `content-length` over the limit is refused before reading anything.
 * @throws SwitchyardError `PAYLOAD_TOO_LARGE` (413) naming the limit
 * @throws ClientGoneError when the client disconnects mid-body
 * @public
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) {
    return Promise.reject(tooLarge(limit, `content-length ${declared}`));
  }
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        reject(tooLarge(limit, `more than ${limit} bytes received`));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    };
    const onError = (): void => {
      cleanup();
      reject(new ClientGoneError());
    };
    const onClose = (): void => {
      if (req.readableEnded) return;
      cleanup();
      reject(new ClientGoneError());
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

function tooLarge(limit: number, what: string): SwitchyardError {
  return new SwitchyardError('PAYLOAD_TOO_LARGE', `request body exceeds maxBodyBytes (${limit}): ${what}`);
}
