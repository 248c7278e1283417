import { EventEmitter } from 'eventemitter3';

/**
 * `grpc.health.v1.HealthCheckResponse.ServingStatus` values.
 * @public
 * @category Server
 */
export const ServingStatus = { UNKNOWN: 0, SERVING: 1, NOT_SERVING: 2, SERVICE_UNKNOWN: 3 } as const;

/**
 * A serving status value. @public
 * @category Server
 */
export type ServingStatusValue = (typeof ServingStatus)[keyof typeof ServingStatus];

/**
 * Service name Envoy health-checks the ext_proc port with. @public
 * @category Server
 */
export const EXT_PROC_SERVICE_NAME = 'envoy.service.ext_proc.v3.ExternalProcessor';

/**
 * Events of {@link HealthState}. @public
 * @category Server
 */
export interface HealthStateEvents {
  /** Readiness changed. */
  change: [];
}

/**
 * Health as the gRPC health service reports it, following the Gateway API Inference Extension:
 * `liveness` is SERVING while the process runs; `readiness`, the ext_proc service name and `""`
 * are SERVING while the picker is ready and not shutting down; any other name is SERVICE_UNKNOWN.
 * @public
 * @category Server
 */
export class HealthState extends EventEmitter<HealthStateEvents> {
  #ready: boolean;
  #shuttingDown = false;

  /** @param ready - initial readiness */
  constructor(ready = true) {
    super();
    this.#ready = ready;
  }

  /** Sets readiness (e.g. false until endpoints are known). */
  setReady(ready: boolean): void {
    if (ready === this.#ready) return;
    this.#ready = ready;
    this.emit('change');
  }

  /** Marks the server as draining: readiness becomes NOT_SERVING for good. */
  shutdown(): void {
    if (this.#shuttingDown) return;
    this.#shuttingDown = true;
    this.emit('change');
  }

  /** True while ready and not shutting down. */
  get serving(): boolean {
    return this.#ready && !this.#shuttingDown;
  }

  /** Status of a named service. */
  statusOf(service: string): ServingStatusValue {
    if (service === 'liveness') return ServingStatus.SERVING;
    if (service === 'readiness' || service === '' || service === EXT_PROC_SERVICE_NAME) {
      return this.serving ? ServingStatus.SERVING : ServingStatus.NOT_SERVING;
    }
    return ServingStatus.SERVICE_UNKNOWN;
  }
}
