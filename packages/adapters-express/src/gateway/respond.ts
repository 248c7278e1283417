import type { ServerResponse } from 'node:http';
import { errorToResponse } from '@switchyard/core';

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
 * @returns the status written, or 0 when the response could only be cut
 * @public
 */
export function sendError(res: ServerResponse, error: unknown, extraHeaders: Readonly<Record<string, string>> = {}, close = false): number {
  if (res.headersSent) {
    if (!res.writableEnded) res.destroy();
    return 0;
  }
  const answer = errorToResponse(error);
  return sendJson(res, answer.status, answer.body, { ...answer.headers, ...extraHeaders }, close);
}
