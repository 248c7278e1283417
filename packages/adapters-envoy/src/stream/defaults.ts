import { DEFAULT_MAX_BODY_BYTES, optionRules, resolveOptions, type OptionRules } from '@switchyard/core';
import { STREAMED_BODY_CHUNK_BYTES } from '../wire/responses.js';
import { trustSwitch } from './trust-alias.js';
import type { ExtProcStreamOptions } from './types.js';

/**
 * The defaults of {@link ExtProcStreamOptions}: the type of {@link EXT_PROC_STREAM_DEFAULTS}.
 * @public
 * @category Options
 */
export interface ExtProcStreamDefaults {
  /** Largest request body accepted. */
  readonly maxBodyBytes: number;
  /** Read classification headers from requests. */
  readonly trustClassificationHeaders: boolean;
  /** Largest streamed body chunk sent back. */
  readonly chunkBytes: number;
  /** Echo the client's non-control headers in the request header reply. */
  readonly echoHeaders: boolean;
  /** Add the candidates' scores to the `envoy.lb` metadata. */
  readonly emitEndpointScores: boolean;
}

/**
 * {@link ExtProcStreamOptions} after {@link resolveExtProcStreamOptions}: every defaulted option
 * present and checked, the deprecated `trustHeaders` folded into `trustClassificationHeaders`.
 * @public
 * @category Options
 */
export type ResolvedExtProcStreamOptions = Readonly<Omit<ExtProcStreamOptions, keyof ExtProcStreamDefaults | 'trustHeaders'>> & ExtProcStreamDefaults;

/**
 * The defaults of one ext_proc stream's options, stated once. `trustClassificationHeaders` is
 * false here as in every library API (docs/security.md); the `switchyard-epp` CLI passes true,
 * as llm-d's EPP trusts what Envoy forwards.
 * @public
 * @category Options
 */
export const EXT_PROC_STREAM_DEFAULTS: ExtProcStreamDefaults = Object.freeze({
  maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
  trustClassificationHeaders: false,
  chunkBytes: STREAMED_BODY_CHUNK_BYTES,
  echoHeaders: true,
  emitEndpointScores: false,
});

const RULES: OptionRules<ExtProcStreamDefaults> = {
  maxBodyBytes: optionRules.integerAtLeast(1),
  trustClassificationHeaders: optionRules.boolean,
  chunkBytes: optionRules.integerAtLeast(1),
  echoHeaders: optionRules.boolean,
  emitEndpointScores: optionRules.boolean,
};

/** Options objects this module resolved: a stream given one does not resolve it again. */
const resolved = new WeakSet<object>();

/**
 * Resolves the options of ext_proc streams in one step (defaults from
 * {@link EXT_PROC_STREAM_DEFAULTS}, each given value checked). `startEppServer` resolves once for
 * all its streams; an `ExtProcStream` given unresolved options resolves them itself.
 * @param scope - the options' path in errors (`extProc`, `eppServer`)
 * @throws SwitchyardError `CONFIG_INVALID` whose `field` and message name the bad option
 * @public
 * @category Options
 */
export function resolveExtProcStreamOptions(options: ExtProcStreamOptions, scope = 'extProc'): ResolvedExtProcStreamOptions {
  if (resolved.has(options)) return options as unknown as ResolvedExtProcStreamOptions;
  const trust = trustSwitch(scope, options);
  // The alias is read once, by trustSwitch above; the resolved options carry only the new name.
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  const { trustHeaders: _deprecated, ...rest } = options;
  const out = Object.freeze({ ...rest, ...resolveOptions(scope, { ...options, trustClassificationHeaders: trust }, EXT_PROC_STREAM_DEFAULTS, RULES) });
  resolved.add(out);
  return out;
}
