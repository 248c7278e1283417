import {
  createPrefixBasedPdDecider,
  PREFIX_BASED_PD_DECIDER as CORE_PREFIX_BASED_PD_DECIDER,
  prefixBasedPdDeciderParameters,
  prefixBasedPdDeciderPlugin,
  type PluginDefinition,
  type PrefixBasedPdDeciderOptions,
  type PrefixBasedPdDeciderParams,
  type StageDecider,
} from '@switchyard/core';

/*
 * `prefix-based-pd-decider` lives in @switchyard/core (it only reads the prefix match attribute
 * this package's producers write). These names stay so code written against this package keeps
 * compiling; they are the core objects themselves, so registering either one is the same plugin.
 */

/**
 * Type name of the prefix-based P/D decider.
 * Alias of core's `PREFIX_BASED_PD_DECIDER`, kept so code written against this package keeps working.
 * @public
 */
export const PREFIX_BASED_PD_DECIDER = CORE_PREFIX_BASED_PD_DECIDER;

/**
 * Parameters of `prefix-based-pd-decider`.
 * Alias of core's `prefixBasedPdDeciderParameters`, kept so code written against this package keeps working.
 * @public
 */
export const pdDeciderParameters = prefixBasedPdDeciderParameters;

/**
 * Parsed parameters of `prefix-based-pd-decider`.
 * Alias of core's `PrefixBasedPdDeciderParams`, kept so code written against this package keeps working.
 * @public
 */
export type PdDeciderParams = PrefixBasedPdDeciderParams;

/**
 * Options of {@link createPdDecider}.
 * Alias of core's `PrefixBasedPdDeciderOptions`, kept so code written against this package keeps working.
 * @public
 */
export type PdDeciderOptions = PrefixBasedPdDeciderOptions;

/**
 * Creates a `prefix-based-pd-decider`. Alias of core's `createPrefixBasedPdDecider`, kept so code written against this package keeps working.
 * @public
 */
export function createPdDecider(name: string, options: PdDeciderOptions = {}): StageDecider {
  return createPrefixBasedPdDecider(name, options);
}

/**
 * Plugin definition of `prefix-based-pd-decider`: core's `prefixBasedPdDeciderPlugin` itself
 * (which `createDefaultRegistry()` already registers), kept so code written against this package
 * keeps working.
 * @public
 */
export const pdDeciderDefinition: PluginDefinition<PdDeciderParams> = prefixBasedPdDeciderPlugin;
