import { optionRules, resolveOptions, type OptionRules } from '@switchyard/core';
import { resolveExtProcStreamOptions, type ResolvedExtProcStreamOptions } from '../stream/defaults.js';
import type { EppKeepaliveOptions, EppServerOptions, EppTransport } from './options.js';

/**
 * The defaults of {@link EppServerOptions} beyond the stream's: the type of {@link EPP_SERVER_DEFAULTS}.
 * @public
 * @category Options
 */
export interface EppServerDefaults {
  /** Interface to bind. */
  readonly host: string;
  /** gRPC port (ext_proc and health). */
  readonly port: number;
  /** How long `close()` waits for in-flight requests, ms. */
  readonly shutdownGraceMs: number;
  /** Message codec. */
  readonly codec: 'builtin' | 'proto-loader';
  /** Who speaks gRPC. */
  readonly transport: EppTransport;
  /** HTTP/2 keepalive pings. */
  readonly keepalive: { readonly [K in keyof EppKeepaliveOptions]-?: number };
}

/**
 * {@link EppServerOptions} after {@link resolveEppServerOptions}.
 * @public
 * @category Options
 */
export type ResolvedEppServerOptions = ResolvedExtProcStreamOptions & Readonly<Omit<EppServerOptions, keyof EppServerDefaults | keyof ResolvedExtProcStreamOptions | 'trustHeaders'>> & EppServerDefaults;

/**
 * The defaults of `startEppServer`'s own options, stated once (the stream options' are
 * `EXT_PROC_STREAM_DEFAULTS`).
 * @public
 * @category Options
 */
export const EPP_SERVER_DEFAULTS: EppServerDefaults = Object.freeze({
  host: '0.0.0.0',
  port: 9002,
  shutdownGraceMs: 30_000,
  codec: 'builtin' as const,
  transport: 'http2' as const,
  keepalive: Object.freeze({ timeMs: 30_000, timeoutMs: 10_000 }),
});

/** A TCP port; 0 picks a free one. */
export const portRule = optionRules.integerBetween(0, 65535);

const RULES: OptionRules<EppServerDefaults> = {
  host: optionRules.nonEmptyString,
  port: portRule,
  shutdownGraceMs: optionRules.nonNegativeNumber,
  codec: optionRules.oneOf(['builtin', 'proto-loader'] as const),
  transport: optionRules.oneOf(['grpc-js', 'http2'] as const),
  keepalive: optionRules.nested(EPP_SERVER_DEFAULTS.keepalive, { timeMs: optionRules.positiveNumber, timeoutMs: optionRules.positiveNumber }),
};

/**
 * Resolves `startEppServer`'s options in one step: the stream options
 * ({@link resolveExtProcStreamOptions}) and the server's (defaults from
 * {@link EPP_SERVER_DEFAULTS}); `healthPort` and `maxConcurrentStreams` have no default and are
 * checked when given.
 * @throws SwitchyardError `CONFIG_INVALID` whose `field` and message name the bad option (`eppServer.port`)
 * @public
 * @category Options
 */
export function resolveEppServerOptions(options: EppServerOptions): ResolvedEppServerOptions {
  const scope = 'eppServer';
  if (options.healthPort !== undefined) portRule(options.healthPort, `${scope}.healthPort`);
  if (options.maxConcurrentStreams !== undefined) optionRules.integerAtLeast(1)(options.maxConcurrentStreams, `${scope}.maxConcurrentStreams`);
  const stream = resolveExtProcStreamOptions(options, scope);
  return Object.freeze({ ...stream, ...resolveOptions(scope, options, EPP_SERVER_DEFAULTS, RULES) });
}
