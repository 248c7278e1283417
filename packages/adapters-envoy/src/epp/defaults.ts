import { invalidOption, optionRules, resolveOptions, type OptionRule, type OptionRules } from '@switchyard/core';
import { EPP_SERVER_DEFAULTS, portRule } from '../grpc/server-defaults.js';
import { EXT_PROC_STREAM_DEFAULTS } from '../stream/defaults.js';
import { trustSwitch } from '../stream/trust-alias.js';
import type { EppOptions } from './start-epp.js';
import type { EppTransport } from '../grpc/options.js';

/**
 * The defaults of {@link EppOptions}: the type of {@link EPP_DEFAULTS}.
 * @public
 * @category Options
 */
export interface EppDefaults {
  /** Bind address of both ports. */
  readonly host: string;
  /** ext_proc + health port. */
  readonly grpcPort: number;
  /** `/metrics` port, or false for none. */
  readonly metricsPort: number | false;
  /** Largest request body. */
  readonly maxBodyBytes: number;
  /** Read classification headers. */
  readonly trustClassificationHeaders: boolean;
  /** Add the candidates' scores to the `envoy.lb` metadata. */
  readonly emitEndpointScores: boolean;
  /** Initial readiness of the gRPC health service. */
  readonly ready: boolean;
  /** Who speaks gRPC on the ports. */
  readonly transport: EppTransport;
  /** Record llm-d's ext_proc stream families. */
  readonly grpcStreamMetrics: boolean;
}

/**
 * {@link EppOptions} after {@link resolveEppOptions}.
 * @public
 * @category Options
 */
export type ResolvedEppOptions = Readonly<Omit<EppOptions, keyof EppDefaults | 'trustHeaders'>> & EppDefaults;

/**
 * The defaults of `startEpp`, stated once; the values it shares with `startEppServer` and the
 * streams are read from their constants. The `switchyard-epp` CLI differs in one default on
 * purpose: it trusts classification headers (`EPP_CLI_DEFAULTS`), as llm-d's EPP does.
 * @public
 * @category Options
 */
export const EPP_DEFAULTS: EppDefaults = Object.freeze({
  host: EPP_SERVER_DEFAULTS.host,
  grpcPort: EPP_SERVER_DEFAULTS.port,
  metricsPort: 9090,
  maxBodyBytes: EXT_PROC_STREAM_DEFAULTS.maxBodyBytes,
  trustClassificationHeaders: EXT_PROC_STREAM_DEFAULTS.trustClassificationHeaders,
  emitEndpointScores: EXT_PROC_STREAM_DEFAULTS.emitEndpointScores,
  ready: true,
  transport: EPP_SERVER_DEFAULTS.transport,
  grpcStreamMetrics: false,
});

const portOrFalse: OptionRule<number | false> = (value, field) => (value === false ? false : portRule(value, field));

const RULES: OptionRules<EppDefaults> = {
  host: optionRules.nonEmptyString,
  grpcPort: portRule,
  metricsPort: portOrFalse,
  maxBodyBytes: optionRules.integerAtLeast(1),
  trustClassificationHeaders: optionRules.boolean,
  emitEndpointScores: optionRules.boolean,
  ready: optionRules.boolean,
  transport: optionRules.oneOf(['grpc-js', 'http2'] as const),
  grpcStreamMetrics: optionRules.boolean,
};

/**
 * Resolves `startEpp`'s options in one step: defaults from {@link EPP_DEFAULTS}, each given value
 * checked, the deprecated `trustHeaders` folded into `trustClassificationHeaders` (with one
 * deprecation warning). `grpcHealthPort` and `scrapeIntervalMs` have no constant default (none,
 * and the config's `metrics-data-source` interval) and are checked when given.
 * @throws SwitchyardError `CONFIG_INVALID` whose `field` and message name the bad option (`epp.grpcPort`)
 * @public
 * @category Options
 */
export function resolveEppOptions(options: EppOptions): ResolvedEppOptions {
  const scope = 'epp';
  if (options.grpcHealthPort !== undefined) portRule(options.grpcHealthPort, `${scope}.grpcHealthPort`);
  const interval = options.scrapeIntervalMs;
  if (interval !== undefined && interval !== false) optionRules.positiveNumber(interval, `${scope}.scrapeIntervalMs`);
  if (!Array.isArray(options.endpoints)) throw invalidOption(`${scope}.endpoints`, 'must be an array of ip:port strings or endpoint specs', options.endpoints);
  const trust = trustSwitch(scope, options);
  // The alias is read once, by trustSwitch above; the resolved options carry only the new name.
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  const { trustHeaders: _deprecated, ...rest } = options;
  return Object.freeze({ ...rest, ...resolveOptions(scope, { ...options, trustClassificationHeaders: trust }, EPP_DEFAULTS, RULES) });
}
