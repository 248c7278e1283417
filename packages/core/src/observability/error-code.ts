import { ERROR_CONTRACT } from '../errors/codes.js';
import { isSwitchyardError } from '../errors/switchyard-error.js';

/**
 * llm-d's `error_code` label of `request_error_total` for a failure: `ModelServerError` when the
 * model server answered with a non-2xx status, else the canonical code of the HTTP status the
 * request was answered with (`BadRequest`, `NotFound`, `PreconditionFailed`, `ResourceExhausted`,
 * `ServiceUnavailable`, `Internal`, …), so dashboards and alerts written for llm-d select the
 * same series. `Canceled` is a client that went away.
 * @public
 * @category Metrics of our own
 */
export function llmdErrorCode(failure: { readonly error?: unknown; readonly upstreamStatus?: number | undefined; readonly cancelled?: boolean }): string {
  if (failure.cancelled === true) return 'Canceled';
  if (failure.upstreamStatus !== undefined) return 'ModelServerError';
  const error = failure.error;
  if (!isSwitchyardError(error)) return 'Internal';
  if (error.code === 'UPSTREAM_UNAVAILABLE' || error.code === 'UPSTREAM_TIMEOUT') return 'ModelServerError';
  if (error.code === 'REJECTED_CONTEXT_CANCELLED') return 'Canceled';
  return CODE_BY_STATUS[ERROR_CONTRACT[error.code].status] ?? 'Unknown';
}

const CODE_BY_STATUS: Readonly<Record<number, string>> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  408: 'BadRequest',
  412: 'PreconditionFailed',
  413: 'BadRequest',
  429: 'ResourceExhausted',
  500: 'Internal',
  503: 'ServiceUnavailable',
};
