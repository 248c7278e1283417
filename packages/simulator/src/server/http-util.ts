import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Reads a request body up to `limit` bytes.
 * @internal
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(new HttpError(413, `request body exceeds ${limit} bytes`, 'BadRequestError'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => { resolve(Buffer.concat(chunks)); });
    req.on('error', reject);
  });
}

/**
 * An error answered with an OpenAI-style error body.
 * @internal
 */
export class HttpError extends Error {
  readonly status: number;
  readonly type: string;
  readonly param: string | undefined;
  constructor(status: number, message: string, type = 'BadRequestError', param?: string) {
    super(message);
    this.status = status;
    this.type = type;
    this.param = param;
  }
}

/** Writes a JSON response. @internal */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Writes an error in the shape vLLM's OpenAI server uses. @internal */
export function sendError(res: ServerResponse, err: HttpError): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  sendJson(res, err.status, { error: { message: err.message, type: err.type, param: err.param ?? null, code: err.status } });
}
