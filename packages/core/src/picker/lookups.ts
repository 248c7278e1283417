/**
 * Where the picker looks up an objective's priority. `ObjectiveStore` implements it.
 * @public
 * @category EndpointPicker façade
 */
export interface ObjectiveLookup {
  /** Priority of the named objective; 0 when the name is absent or unknown. */
  priorityOf(name: string | undefined): number;
}

/**
 * Where the picker resolves model rewrite rules. `ModelRewriteStore` implements it.
 * @public
 * @category EndpointPicker façade
 */
export interface ModelRewriteResolver {
  /** The model to send instead of `model` (the client's body model), or undefined when no rule applies. */
  resolve(model: string, random: () => number): string | undefined;
}
