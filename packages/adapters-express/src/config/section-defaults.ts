import { ENDPOINT_ROTATION_DEFAULTS } from '../gateway/rotation.js';

/**
 * `gateway.listen`: where `Gateway.listen()` and the CLI listen when no port or host is given.
 * @public
 * @category Config
 */
export interface GatewayListenSettings {
  /** TCP port (0: any free port). @defaultValue 8080 */
  readonly port?: number;
  /** Interface address. @defaultValue '0.0.0.0' */
  readonly host?: string;
}

/**
 * `gateway.circuitBreaker`: the rotation that takes failing endpoints out (`EndpointRotation`,
 * whose options the other keys are, with their defaults from `ENDPOINT_ROTATION_DEFAULTS`).
 * @public
 * @category Config
 */
export interface CircuitBreakerSettings {
  /** Put the rotation in front of each pool. @defaultValue true */
  readonly enabled?: boolean;
  /** See `EndpointRotationOptions.failureThreshold`. @defaultValue 5 */
  readonly failureThreshold?: number;
  /** See `EndpointRotationOptions.cooldownMs`. @defaultValue 5000 */
  readonly cooldownMs?: number;
  /** See `EndpointRotationOptions.probeAfterMs`. @defaultValue 30000 */
  readonly probeAfterMs?: number;
  /** See `EndpointRotationOptions.minInRotation`. @defaultValue 1 */
  readonly minInRotation?: number;
}

/**
 * The keys of the `gateway` config section that are not handler options (those default to
 * `GATEWAY_DEFAULTS`) and have a plain default: the type of {@link GATEWAY_SECTION_DEFAULTS}.
 * @public
 * @category Config
 */
export interface GatewaySectionSettings {
  /** See {@link GatewayListenSettings}. */
  readonly listen?: GatewayListenSettings;
  /** See {@link CircuitBreakerSettings}. */
  readonly circuitBreaker?: CircuitBreakerSettings;
}

/**
 * The defaults of the `gateway` section's own keys, stated once: the section's schema defaults
 * to them (the handler options default to `GATEWAY_DEFAULTS`, the rotation's to
 * `ENDPOINT_ROTATION_DEFAULTS`, which `circuitBreaker` reads).
 * @public
 * @category Config
 */
export const GATEWAY_SECTION_DEFAULTS: {
  readonly listen: Required<GatewayListenSettings>;
  readonly circuitBreaker: Required<CircuitBreakerSettings>;
} = Object.freeze({
  listen: Object.freeze({ port: 8080, host: '0.0.0.0' }),
  circuitBreaker: Object.freeze({ enabled: true, ...ENDPOINT_ROTATION_DEFAULTS }),
});
