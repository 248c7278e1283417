/**
 * What happened in one profile of a scheduling cycle.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export interface ProfileTrace {
  /** Profile name. */
  readonly profile: string;
  /** Endpoint ids the profile started with. */
  readonly candidates: readonly string[];
  /** Per filter (in order): the endpoint ids it removed. */
  readonly filters: { readonly name: string; readonly removed: readonly string[] }[];
  /** Per scorer: weight, raw score (after clamping) and weighted score per endpoint id. */
  readonly scorers: ScorerTrace[];
  /** Total weighted score per endpoint id. */
  totals: Readonly<Record<string, number>>;
  /** Picked endpoint ids, primary first; empty when the profile failed. */
  picked: readonly string[];
  /** Why the profile failed, when it did. */
  error?: string;
  /** Clock time (ms) the profile started, when the recorder has a clock. */
  startedAt?: number;
  /** Clock time (ms) the profile ended, when the recorder has a clock. */
  endedAt?: number;
}

/**
 * One scorer's contribution in a {@link ProfileTrace}.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export interface ScorerTrace {
  /** Scorer instance name. */
  readonly name: string;
  /** Its weight in the profile. */
  readonly weight: number;
  /** Raw score per endpoint id, clamped to [0, 1]; endpoints the scorer skipped have 0. */
  readonly scores: Readonly<Record<string, number>>;
  /** `weight × score` per endpoint id. */
  readonly weighted: Readonly<Record<string, number>>;
  /** What the scorer's `explain` reported per endpoint id (e.g. the estimated TTFT), when it has one. */
  readonly details?: Readonly<Record<string, object>>;
}

/**
 * Explanation of one decision: per profile, the candidates, what each filter removed, each
 * scorer's raw and weighted scores, and the pick.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export interface DecisionTrace {
  /** Request id. */
  readonly requestId: string;
  /** Model after rewrite. */
  readonly targetModel: string;
  /** Priority from the objective. */
  readonly priority: number;
  /** Fairness id. */
  readonly fairnessId: string;
  readonly profiles: ProfileTrace[];
  /** Clock time (ms) the request was admitted (scheduling began), when the recorder has a clock. */
  readonly admittedAt?: number;
  /** Data producers that ran, in order, and any error they logged. */
  readonly producers: { readonly name: string; readonly error?: string }[];
}

/**
 * Collects a {@link DecisionTrace}. The scheduler only calls it when tracing is on, so a
 * decision nobody inspects pays nothing.
 * @public
 * @category Scheduling framework (Filter → Score → Pick)
 */
export class TraceRecorder {
  /** The trace being recorded. */
  readonly trace: DecisionTrace;
  #current: ProfileTrace | undefined;
  readonly #now: (() => number) | undefined;

  /** @param now - clock reads for profile and admission times (spans); omitted: no times */
  constructor(requestId: string, targetModel: string, priority: number, fairnessId: string, now?: () => number) {
    this.#now = now;
    this.trace = now === undefined ? { requestId, targetModel, priority, fairnessId, profiles: [], producers: [] } : { requestId, targetModel, priority, fairnessId, profiles: [], producers: [], admittedAt: now() };
  }

  /** Records a data producer run. */
  producer(name: string, error?: unknown): void {
    this.trace.producers.push(error === undefined ? { name } : { name, error: error instanceof Error ? error.message : JSON.stringify(error) });
  }

  /** Starts a profile with its candidate ids. */
  beginProfile(profile: string, candidates: readonly string[]): void {
    this.#current = { profile, candidates, filters: [], scorers: [], totals: {}, picked: [] };
    if (this.#now !== undefined) this.#current.startedAt = this.#now();
    this.trace.profiles.push(this.#current);
  }

  /** Records the ids a filter removed. */
  filter(name: string, removed: readonly string[]): void {
    this.#current?.filters.push({ name, removed });
  }

  /** Records one scorer's clamped raw scores (the weighted scores are derived). */
  scorer(name: string, weight: number, scores: Readonly<Record<string, number>>, details?: Readonly<Record<string, object>>): void {
    const weighted: Record<string, number> = {};
    for (const [id, s] of Object.entries(scores)) weighted[id] = weight * s;
    this.#current?.scorers.push(details === undefined ? { name, weight, scores, weighted } : { name, weight, scores, weighted, details });
  }

  /** Records totals and the pick of the current profile. */
  endProfile(totals: Readonly<Record<string, number>>, picked: readonly string[], error?: string): void {
    if (this.#current === undefined) return;
    this.#current.totals = totals;
    this.#current.picked = picked;
    if (error !== undefined) this.#current.error = error;
    if (this.#now !== undefined) this.#current.endedAt = this.#now();
    this.#current = undefined;
  }
}
