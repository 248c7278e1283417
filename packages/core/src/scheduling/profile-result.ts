import type { Endpoint } from '../endpoints/types.js';
import type { ProfileResult, ScoredEndpoint } from './plugins.js';

/**
 * A {@link ProfileResult} whose `scored` list is built only when someone reads it, so a decision
 * nobody inspects allocates no per-endpoint objects.
 * @internal
 */
export class LazyProfileResult implements ProfileResult {
  readonly targets: readonly Endpoint[];
  readonly #endpoints: readonly Endpoint[];
  readonly #totals: Float64Array;
  #scored: readonly ScoredEndpoint[] | undefined;

  constructor(targets: readonly Endpoint[], endpoints: readonly Endpoint[], totals: Float64Array) {
    this.targets = targets;
    this.#endpoints = endpoints;
    this.#totals = totals;
  }

  get scored(): readonly ScoredEndpoint[] {
    if (this.#scored === undefined) {
      const out: ScoredEndpoint[] = [];
      for (let i = 0; i < this.#endpoints.length; i++) out.push({ endpoint: this.#endpoints[i] as Endpoint, score: this.#totals[i] as number });
      this.#scored = out;
    }
    return this.#scored;
  }

  /** Total score of one endpoint (undefined when it was not a candidate). */
  scoreOf(id: string): number | undefined {
    const i = this.#endpoints.findIndex((e) => e.id === id);
    return i < 0 ? undefined : this.#totals[i];
  }
}
