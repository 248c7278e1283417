import type { Plugin } from '../../scheduling/plugins.js';
import type { InferenceRequest } from '../../request/types.js';

/**
 * A plugin that derives request data from the client's headers before admission (llm-d's
 * RequestHeader processor): the picker asks each one, in config order, for the request's agent
 * identity, which becomes the fairness id when `x-llm-d-inference-fairness-id` is absent.
 * @public
 * @category Built-in plugins
 */
export interface RequestHeaderProcessor extends Plugin {
  /** The identity the request's headers carry, or undefined. */
  identityOf(request: InferenceRequest): string | undefined;
}

/**
 * True when `p` implements {@link RequestHeaderProcessor}. @public
 * @category Built-in plugins
 */
export function isRequestHeaderProcessor(p: Plugin): p is RequestHeaderProcessor {
  return typeof (p as Partial<RequestHeaderProcessor>).identityOf === 'function';
}
