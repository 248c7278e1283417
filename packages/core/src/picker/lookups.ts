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
  /**
   * Like {@link ModelRewriteResolver.resolve}, naming the rewrite whose rule applied, so the
   * picker can count it in `model_rewrite_decisions_total` (optional: a resolver without it is
   * used through `resolve` and its rewrites are not counted).
   */
  resolveRule?(model: string, random: () => number): ModelRewriteDecision | undefined;
}

/**
 * A model rewrite that applied: the model sent instead, and the InferenceModelRewrite holding the rule.
 * @public
 * @category EndpointPicker façade
 */
export interface ModelRewriteDecision {
  /** The model to send. */
  readonly model: string;
  /** Name of the InferenceModelRewrite whose rule applied. */
  readonly rewriteName: string;
}
