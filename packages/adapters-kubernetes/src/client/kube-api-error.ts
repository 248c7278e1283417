import { SwitchyardError } from '@switchyard/core';

/**
 * A Kubernetes API request that failed: the HTTP status and the `Status` reason when the server
 * sent one (`NotFound`, `Conflict`, `Expired`...), or status 0 for a transport error.
 * @public
 * @category API client
 */
export class KubeApiError extends SwitchyardError {
  /** HTTP status of the API server's answer, 0 when none arrived. */
  readonly httpStatus: number;
  /** `Status.reason` of the answer, when given. */
  readonly kubeReason: string | undefined;

  constructor(httpStatus: number, kubeReason: string | undefined, message: string, cause?: unknown) {
    super('UPSTREAM_UNAVAILABLE', message, cause === undefined ? {} : { cause });
    this.name = 'KubeApiError';
    this.httpStatus = httpStatus;
    this.kubeReason = kubeReason;
  }
}

/** True for a {@link KubeApiError}, with this HTTP status when one is given. @public */
export function isKubeApiError(err: unknown, httpStatus?: number): err is KubeApiError {
  return err instanceof KubeApiError && (httpStatus === undefined || err.httpStatus === httpStatus);
}
