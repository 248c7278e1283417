/**
 * A reference to an InferencePool (by name; `group`/`kind` kept for round-tripping).
 * @public
 * @category Objectives and model rewrites
 */
export interface PoolRef {
  /** Pool name. */
  readonly name: string;
  /** API group of the pool, when given. */
  readonly group?: string;
  /** Kind of the pool, when given. */
  readonly kind?: string;
}

/**
 * A traffic class: requests naming it in `x-llm-d-inference-objective` get its priority.
 * Priority is an int32; unset means 0; negative values mark sheddable traffic.
 * @public
 * @category Objectives and model rewrites
 */
export interface InferenceObjective {
  /** Objective name (`metadata.name`); what the header carries. */
  readonly name: string;
  /** Priority; higher is served first, negative is sheddable. */
  readonly priority: number;
  /** Pools the objective applies to (`spec.poolRefs`, or v1alpha2's single `spec.poolRef`). */
  readonly poolRefs?: readonly PoolRef[];
  /** `metadata.namespace`, when given. */
  readonly namespace?: string;
  /** `metadata.creationTimestamp` in epoch milliseconds, when given. */
  readonly creationTimestamp?: number;
}

/**
 * One weighted destination of a model-rewrite rule.
 * @public
 * @category Objectives and model rewrites
 */
export interface ModelRewriteTarget {
  /** Model name the request body's `model` is rewritten to. */
  readonly modelRewrite: string;
  /** Relative weight in 1..1e6; unweighted targets are only chosen when no target has a weight. */
  readonly weight?: number;
}

/**
 * One rule of an {@link InferenceModelRewrite}: matched models (exact; empty = every model) and
 * the targets traffic is split across.
 * @public
 * @category Objectives and model rewrites
 */
export interface ModelRewriteRule {
  /** Exact model names this rule matches; empty means the rule is generic (matches every model). */
  readonly matches: readonly string[];
  /** Weighted targets; a rule without targets rewrites nothing. */
  readonly targets: readonly ModelRewriteTarget[];
}

/**
 * A set of model-rewrite rules (traffic splitting, canaries, aliasing) for a pool.
 * @public
 * @category Objectives and model rewrites
 */
export interface InferenceModelRewrite {
  /** Resource name (`metadata.name`). */
  readonly name: string;
  /** Pool the rewrite targets (`spec.poolRef`), when given. */
  readonly poolRef?: PoolRef;
  /** Rules in order; see {@link ModelRewriteStore} for precedence. */
  readonly rules: readonly ModelRewriteRule[];
  /** `metadata.namespace`, when given. */
  readonly namespace?: string;
  /** `metadata.creationTimestamp` in epoch milliseconds; older resources take precedence. */
  readonly creationTimestamp?: number;
}
