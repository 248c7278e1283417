import type { InferenceModelRewrite, ModelRewriteRule, ModelRewriteTarget } from './types.js';
import type { ModelRewriteDecision } from '../picker/lookups.js';

/**
 * Options of {@link ModelRewriteStore}.
 * @public
 * @category Objectives and model rewrites
 */
export interface ModelRewriteStoreOptions {
  /**
   * Only keep rewrites whose `poolRef` names this pool (rewrites without a `poolRef` are kept).
   * @defaultValue undefined: keep every rewrite
   */
  readonly poolName?: string;
}

/**
 * The rule that won for a model, and the resource it came from.
 * @public
 * @category Objectives and model rewrites
 */
export interface ModelRewriteMatch {
  /** Name of the {@link InferenceModelRewrite} holding the rule. */
  readonly rewriteName: string;
  /** The winning rule. */
  readonly rule: ModelRewriteRule;
}

interface Entry {
  readonly rewrite: InferenceModelRewrite;
  /** Insertion order; breaks timestamp ties and orders resources without a timestamp. */
  readonly seq: number;
}

interface RuleRef {
  readonly entry: Entry;
  readonly index: number;
}

/** Oldest resource first; resources without a timestamp after all timestamped ones; then insertion; then rule order. */
function precedence(a: RuleRef, b: RuleRef): number {
  const ta = a.entry.rewrite.creationTimestamp ?? Number.POSITIVE_INFINITY;
  const tb = b.entry.rewrite.creationTimestamp ?? Number.POSITIVE_INFINITY;
  if (ta !== tb) return ta < tb ? -1 : 1;
  return a.entry.seq - b.entry.seq || a.index - b.index;
}

/**
 * Picks a target: `floor(random() * Σweight)` over the weighted targets (unweighted ones are never
 * chosen while any target has a weight); uniformly when none has a weight; undefined when empty.
 * @param random - returns a number in [0, 1)
 * @public
 * @category Objectives and model rewrites
 */
export function selectRewriteTarget(targets: readonly ModelRewriteTarget[], random: () => number): ModelRewriteTarget | undefined {
  let total = 0;
  for (const t of targets) if (t.weight !== undefined && t.weight > 0) total += t.weight;
  if (total === 0) return targets[Math.min(targets.length - 1, Math.floor(random() * targets.length))];
  let r = Math.min(total - 1, Math.floor(random() * total));
  let last: ModelRewriteTarget | undefined;
  for (const t of targets) {
    if (t.weight === undefined || t.weight <= 0) continue;
    if (r < t.weight) return t;
    r -= t.weight;
    last = t;
  }
  return last;
}

/**
 * The InferenceModelRewrites known to one picker. For a request's model, a rule matching it
 * exactly beats a generic rule (empty `matches`); ties go to the oldest resource
 * (`creationTimestamp`), then to the first rule in list order; the rule's targets then split the
 * traffic by weight ({@link selectRewriteTarget}).
 * @public
 * @category Objectives and model rewrites
 */
export class ModelRewriteStore {
  readonly #byName = new Map<string, Entry>();
  readonly #poolName: string | undefined;
  #seq = 0;
  #exact = new Map<string, RuleRef[]>();
  #generic: RuleRef[] = [];

  /** @param initial - rewrites to start with (filtered by `options.poolName`) */
  constructor(initial: Iterable<InferenceModelRewrite> = [], options: ModelRewriteStoreOptions = {}) {
    this.#poolName = options.poolName;
    for (const r of initial) this.set(r);
  }

  /**
   * Adds or replaces a rewrite (an update keeps the original insertion order). Returns false (and
   * drops any previous version) when it targets another pool.
   */
  set(rewrite: InferenceModelRewrite): boolean {
    const previous = this.#byName.get(rewrite.name);
    if (this.#poolName !== undefined && rewrite.poolRef !== undefined && rewrite.poolRef.name !== this.#poolName) {
      if (previous !== undefined) this.delete(rewrite.name);
      return false;
    }
    this.#byName.set(rewrite.name, { rewrite, seq: previous?.seq ?? this.#seq++ });
    this.#rebuild();
    return true;
  }

  /** Removes a rewrite; returns false when it was not there. */
  delete(name: string): boolean {
    if (!this.#byName.delete(name)) return false;
    this.#rebuild();
    return true;
  }

  /** Rewrite by name. */
  get(name: string): InferenceModelRewrite | undefined {
    return this.#byName.get(name)?.rewrite;
  }

  /** All rewrites, in insertion order. */
  list(): InferenceModelRewrite[] {
    return [...this.#byName.values()].map((e) => e.rewrite);
  }

  /** The highest-precedence rule for `model`, or undefined when no rule matches. */
  match(model: string): ModelRewriteMatch | undefined {
    const ref = this.#exact.get(model)?.[0] ?? this.#generic[0];
    if (ref === undefined) return undefined;
    const rule = ref.entry.rewrite.rules[ref.index];
    return rule === undefined ? undefined : { rewriteName: ref.entry.rewrite.name, rule };
  }

  /**
   * The model to send instead of `model`, or undefined when no rule applies (or the winning rule
   * has no targets).
   * @param random - returns a number in [0, 1); pass a seeded generator for reproducible splits
   */
  resolve(model: string, random: () => number = Math.random): string | undefined {
    return this.resolveRule(model, random)?.model;
  }

  /** {@link ModelRewriteStore.resolve}, with the name of the rewrite whose rule applied. */
  resolveRule(model: string, random: () => number = Math.random): ModelRewriteDecision | undefined {
    const m = this.match(model);
    const target = m === undefined ? undefined : selectRewriteTarget(m.rule.targets, random)?.modelRewrite;
    return m === undefined || target === undefined ? undefined : { model: target, rewriteName: m.rewriteName };
  }

  #rebuild(): void {
    const exact = new Map<string, RuleRef[]>();
    const generic: RuleRef[] = [];
    for (const entry of this.#byName.values()) {
      entry.rewrite.rules.forEach((rule, index) => {
        const ref = { entry, index };
        if (rule.matches.length === 0) {
          generic.push(ref);
          return;
        }
        for (const model of new Set(rule.matches)) {
          let list = exact.get(model);
          if (list === undefined) exact.set(model, (list = []));
          list.push(ref);
        }
      });
    }
    generic.sort(precedence);
    for (const list of exact.values()) list.sort(precedence);
    this.#exact = exact;
    this.#generic = generic;
  }
}
