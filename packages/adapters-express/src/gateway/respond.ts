import type { ServerResponse } from 'node:http';
import { errorToResponse, isSwitchyardError } from '@switchyard/core';

/**
 * Writes a JSON response with an exact `content-length`. Does nothing when the response already
 * started or the connection is gone (the caller then terminates it instead).
 * @returns the status written, or 0 when nothing could be written
 * @public
 */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}, close = false): number {
  if (res.headersSent || res.destroyed || res.writableEnded) return 0;
  const text = JSON.stringify(body);
  const head: Record<string, string | number> = { 'content-type': 'application/json', ...headers, 'content-length': Buffer.byteLength(text) };
  // When the request body was not read to the end, the connection cannot be reused safely.
  if (close) head.connection = 'close';
  res.writeHead(status, head);
  res.end(text);
  return status;
}

/**
 * Answers with the error contract: HTTP status, `x-llm-d-request-dropped-reason` when defined, and
 * an OpenAI-style `{"error":{message,type,code,param}}` body the official SDKs understand.
 * Unknown errors become 500 `rejected-internal` without leaking their message. When the response
 * already started, the connection is cut so the client cannot mistake it for a complete answer.
 * Every 429, and the 503 of a full body buffer, carries `Retry-After` (`retryAfterSeconds`), so
 * clients back off instead of retrying at once.
 * @returns the status written, or 0 when the response could only be cut
 * @public
 */
export function sendError(res: ServerResponse, error: unknown, extraHeaders: Readonly<Record<string, string>> = {}, close = false, retryAfterSeconds = 1): number {
  if (res.headersSent) {
    if (!res.writableEnded) res.destroy();
    return 0;
  }
  const answer = errorToResponse(error);
  const retry = answer.status === 429 || (isSwitchyardError(error) && error.code === 'REQUEST_BUFFERS_FULL');
  const headers = retry ? { ...answer.headers, 'retry-after': String(retryAfterSeconds), ...extraHeaders } : { ...answer.headers, ...extraHeaders };
  return sendJson(res, answer.status, answer.body, headers, close);
}
