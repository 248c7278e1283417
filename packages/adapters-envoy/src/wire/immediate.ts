import { errorToResponse, isSwitchyardError, type LocalResponse } from '@switchyard/core';
import { setHeader } from './headers.js';
import type { ProcessingResponse } from './messages.js';

/**
 * Turns a `SwitchyardError` into an `ImmediateResponse`: the contract's HTTP status, its
 * `x-llm-d-request-dropped-reason` header, and an OpenAI-style JSON body whose message reads
 * `inference error: <CODE> - <why>`. `details` (access logs' `%RESPONSE_CODE_DETAILS%`) is
 * `switchyard_<code>`, without whitespace as Envoy requires.
 *
 * Returns `undefined` for anything that is not a SwitchyardError: such failures are bugs, not
 * contract answers, and are surfaced as a gRPC error so the proxy's failure mode (FailOpen /
 * FailClose) decides what happens to the request.
 * @public
 */
export function immediateResponseFor(error: unknown): ProcessingResponse | undefined {
  if (!isSwitchyardError(error)) return undefined;
  const answer = errorToResponse(error);
  return {
    immediate_response: {
      status: { code: answer.status },
      headers: { set_headers: Object.entries(answer.headers).map(([k, v]) => setHeader(k, v)) },
      body: Buffer.from(JSON.stringify(answer.body), 'utf8'),
      details: `switchyard_${error.code.toLowerCase()}`,
    },
  };
}

/**
 * Turns a responder's local reply (e.g. `models-responder`'s `GET /v1/models` list) into an
 * `ImmediateResponse`, so the proxy answers the client without contacting a model server.
 * @public
 */
export function localImmediateResponse(reply: LocalResponse): ProcessingResponse {
  return {
    immediate_response: {
      status: { code: reply.status },
      headers: { set_headers: Object.entries(reply.headers).map(([k, v]) => setHeader(k, v)) },
      body: Buffer.from(reply.body, 'utf8'),
      details: 'switchyard_local_response',
    },
  };
}
