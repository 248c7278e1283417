import { SwitchyardError, isSwitchyardError, optionRules, resolveOptions } from '@switchyard/core';
import { GATEWAY_CLOSE_DEFAULTS, resolveGatewayOptions } from '../gateway/defaults.js';
import { resolveRotationOptions } from '../gateway/rotation.js';
import type { GatewayOptions } from '../gateway/options.js';
import type { GatewaySection } from './schema.js';
import { trustPredicate } from './trust.js';

/** The handler options the `gateway` section sets; unset keys stay unset, so `GATEWAY_DEFAULTS` applies. */
export type SectionHandlerOptions = Pick<
  GatewayOptions,
  'failureMode' | 'trustClassificationHeaders' | 'upstream' | 'maxBodyBytes' | 'maxJsonDepth' | 'bodyReadTimeoutMs' | 'bodyIdleTimeoutMs' | 'maxBufferedBodyBytes'
>;

/**
 * The `gateway` section's handler options, as `createGatewayHandler` takes them.
 * @throws SwitchyardError `CONFIG_INVALID` for a malformed `trust.trustedClients` entry
 */
export function sectionHandlerOptions(section: GatewaySection): SectionHandlerOptions {
  const trust = trustPredicate(section.trust);
  return {
    failureMode: section.failureMode,
    upstream: section.upstream,
    ...(trust === undefined ? {} : { trustClassificationHeaders: trust }),
    ...(section.maxBodyBytes === undefined ? {} : { maxBodyBytes: section.maxBodyBytes }),
    ...(section.maxJsonDepth === undefined ? {} : { maxJsonDepth: section.maxJsonDepth }),
    ...(section.bodyReadTimeoutMs === undefined ? {} : { bodyReadTimeoutMs: section.bodyReadTimeoutMs }),
    ...(section.bodyIdleTimeoutMs === undefined ? {} : { bodyIdleTimeoutMs: section.bodyIdleTimeoutMs }),
    ...(section.maxBufferedBodyBytes === undefined ? {} : { maxBufferedBodyBytes: section.maxBufferedBodyBytes }),
  };
}

/** `gateway.shutdownGraceMs`, resolved by the same default and rule as `GatewayHandler.close`. */
export function sectionShutdownGraceMs(section: GatewaySection): number {
  return resolveOptions('gateway', { shutdownGraceMs: section.shutdownGraceMs }, { shutdownGraceMs: GATEWAY_CLOSE_DEFAULTS.graceMs }, { shutdownGraceMs: optionRules.nonNegativeNumber }).shutdownGraceMs;
}

/**
 * Checks the section's handler options with the handler's own rules before anything is built
 * (its option names are the section's paths: `gateway.upstream.maxAttempts`), so a config file
 * and code get the same answer for the same value.
 * @throws SwitchyardError `CONFIG_INVALID` prefixed with `where`, `field` the bad path
 */
export function checkSectionOptions(section: GatewaySection, where: string): void {
  try {
    resolveGatewayOptions(sectionHandlerOptions(section));
    sectionShutdownGraceMs(section);
    resolveRotationOptions(section.circuitBreaker);
  } catch (err) {
    if (!isSwitchyardError(err)) throw err;
    throw new SwitchyardError('CONFIG_INVALID', `${where}: ${err.message}`, { ...(err.field === undefined ? {} : { field: err.field }), cause: err });
  }
}
