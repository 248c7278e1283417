import { DROPPED_REASON_HEADER } from '../headers/names.js';
import { ERROR_CONTRACT } from './codes.js';
import { isSwitchyardError } from './switchyard-error.js';

/**
 * An HTTP answer for a failed request.
 * @public
 * @category Errors and the error contract
 */
export interface ErrorResponse {
  /** HTTP status. */
  readonly status: number;
  /** Headers to send (lower-case names), including `x-llm-d-request-dropped-reason` when defined. */
  readonly headers: Readonly<Record<string, string>>;
  /** OpenAI-style error body, understood by the official SDKs. */
  readonly body: {
    readonly error: { readonly message: string; readonly type: string; readonly code: string; readonly param: null };
  };
}

/**
 * Turns any thrown value into the response the error contract prescribes. Unknown errors become
 * 500 `INTERNAL` without leaking their message.
 * @public
 * @category Errors and the error contract
 */
export function errorToResponse(error: unknown): ErrorResponse {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (!isSwitchyardError(error)) {
    headers[DROPPED_REASON_HEADER] = 'rejected-internal';
    return {
      status: 500,
      headers,
      body: { error: { message: 'inference error: INTERNAL - internal error', type: 'server_error', code: 'internal', param: null } },
    };
  }
  if (error.reason !== undefined) headers[DROPPED_REASON_HEADER] = error.reason;
  return {
    status: error.status,
    headers,
    body: {
      error: {
        message: `inference error: ${error.code} - ${error.message}`,
        type: ERROR_CONTRACT[error.code].type,
        code: error.code.toLowerCase(),
        param: null,
      },
    },
  };
}
