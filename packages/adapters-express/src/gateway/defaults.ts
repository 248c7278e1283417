import type { IncomingMessage } from 'node:http';
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_JSON_DEPTH, invalidOption, optionRules, resolveOptions, type OptionRule, type OptionRules } from '@switchyard/core';
import { DEFAULT_INFERENCE_PATHS, type FailureMode, type GatewayOptions, type UpstreamOptions } from './options.js';

/**
 * Every option of {@link UpstreamOptions} with its value after resolution.
 * @public
 * @category Gateway options
 */
export type ResolvedUpstreamOptions = { readonly [K in keyof UpstreamOptions]-?: number };

/**
 * The defaults of {@link GatewayOptions} (the options that have a plain default): the type of
 * {@link GATEWAY_DEFAULTS}.
 * @public
 * @category Gateway options
 */
export type GatewayDefaults = {
  readonly [K in
    | 'poolName' | 'maxBodyBytes' | 'bodyReadTimeoutMs' | 'bodyIdleTimeoutMs' | 'maxBufferedBodyBytes' | 'maxJsonDepth'
    | 'inferencePaths' | 'trustClassificationHeaders' | 'failureMode' | 'retryAfterSeconds' | 'serveMetrics'
    | 'serveOperationalRoutes' | 'trace']-?: Exclude<GatewayOptions[K], undefined>;
} & { readonly upstream: ResolvedUpstreamOptions };

/**
 * {@link GatewayOptions} after {@link resolveGatewayOptions}: every defaulted option present and
 * checked, the collaborators (scheduler, models, dispatcher, hooks...) as given.
 * @public
 * @category Gateway options
 */
export type ResolvedGatewayOptions = Readonly<Omit<GatewayOptions, keyof GatewayDefaults>> & GatewayDefaults;

/**
 * The defaults of the gateway handler's options, stated once: `createGatewayHandler` reads them
 * through {@link resolveGatewayOptions}, the `gateway` config section defaults to them, and the
 * `@defaultValue` tags of {@link GatewayOptions} and the option tables of docs/gateway.md are
 * tested against them.
 * @public
 * @category Gateway options
 */
export const GATEWAY_DEFAULTS: GatewayDefaults = Object.freeze({
  poolName: 'default',
  maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
  bodyReadTimeoutMs: 60_000,
  bodyIdleTimeoutMs: 15_000,
  maxBufferedBodyBytes: 256 * 1024 * 1024,
  maxJsonDepth: DEFAULT_MAX_JSON_DEPTH,
  inferencePaths: DEFAULT_INFERENCE_PATHS,
  // A gateway faces clients: letting them pick their own priority or fairness id is opt-in (docs/security.md).
  trustClassificationHeaders: false,
  failureMode: 'FailClose',
  retryAfterSeconds: 1,
  serveMetrics: true,
  serveOperationalRoutes: true,
  trace: false,
  upstream: Object.freeze({
    maxAttempts: 3,
    connectTimeoutMs: 5000,
    headersTimeoutMs: 300_000,
    bodyTimeoutMs: 300_000,
    connectionsPerEndpoint: 256,
    keepAliveTimeoutMs: 60_000,
  }),
});

const UPSTREAM_RULES: OptionRules<ResolvedUpstreamOptions> = {
  // Every retry is another request on the fleet: more than 10 only amplifies an outage.
  maxAttempts: optionRules.integerBetween(1, 10),
  connectTimeoutMs: optionRules.positiveNumber,
  headersTimeoutMs: optionRules.positiveNumber,
  bodyTimeoutMs: optionRules.positiveNumber,
  connectionsPerEndpoint: optionRules.integerAtLeast(1),
  keepAliveTimeoutMs: optionRules.positiveNumber,
};

const pathList: OptionRule<readonly string[]> = (value, field) => {
  if (!Array.isArray(value) || value.some((p) => typeof p !== 'string' || !p.startsWith('/'))) throw invalidOption(field, 'must be an array of paths starting with "/"', value);
  return Object.freeze([...(value as string[])]);
};

const trustRule: OptionRule<boolean | ((req: IncomingMessage) => boolean)> = (value, field) => {
  if (typeof value !== 'boolean' && typeof value !== 'function') throw invalidOption(field, 'must be true, false or a function of the request', value);
  return value as boolean | ((req: IncomingMessage) => boolean);
};

const GATEWAY_RULES: OptionRules<GatewayDefaults> = {
  poolName: optionRules.nonEmptyString,
  maxBodyBytes: optionRules.integerAtLeast(1),
  bodyReadTimeoutMs: optionRules.positiveNumber,
  bodyIdleTimeoutMs: optionRules.positiveNumber,
  maxBufferedBodyBytes: optionRules.integerAtLeast(1),
  maxJsonDepth: optionRules.integerAtLeast(1),
  inferencePaths: pathList,
  trustClassificationHeaders: trustRule,
  failureMode: optionRules.oneOf<FailureMode>(['FailClose', 'FailOpen']),
  // `Retry-After` carries whole seconds: a fraction is sent rounded up.
  retryAfterSeconds: (value, field) => Math.ceil(optionRules.positiveNumber(value, field)),
  serveMetrics: optionRules.boolean,
  serveOperationalRoutes: optionRules.boolean,
  trace: optionRules.boolean,
  upstream: optionRules.nested(GATEWAY_DEFAULTS.upstream, UPSTREAM_RULES),
};

/**
 * Resolves the gateway handler's options in one step: every defaulted option takes its value
 * from `options` (checked) or {@link GATEWAY_DEFAULTS}; the rest passes through. The result is
 * frozen. `createGatewayHandler` calls it; call it yourself to see what a gateway would run with.
 * @throws SwitchyardError `CONFIG_INVALID` whose `field` and message name the bad option
 * (`gateway.upstream.maxAttempts: must be an integer from 1 to 10, got 0`)
 * @public
 * @category Gateway options
 */
export function resolveGatewayOptions(options: GatewayOptions): ResolvedGatewayOptions {
  return Object.freeze({ ...options, ...resolveOptions('gateway', options, GATEWAY_DEFAULTS, GATEWAY_RULES) });
}

/**
 * The defaults of `GatewayHandler.close(options)` (`CloseOptions`); the `gateway.shutdownGraceMs`
 * config key defaults to `graceMs`.
 * @public
 * @category Gateway options
 */
export const GATEWAY_CLOSE_DEFAULTS: { readonly graceMs: number } = Object.freeze({ graceMs: 30_000 });

/**
 * Resolves the options of `GatewayHandler.close`.
 * @throws SwitchyardError `CONFIG_INVALID` naming `gateway.close.graceMs` when it is not a number ≥ 0
 * @public
 * @category Gateway options
 */
export function resolveGatewayCloseOptions(options: { readonly graceMs?: number | undefined } | undefined): { readonly graceMs: number } {
  return resolveOptions('gateway.close', options, GATEWAY_CLOSE_DEFAULTS, { graceMs: optionRules.nonNegativeNumber });
}
