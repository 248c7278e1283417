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

  /**
   * `targets` followed by up to `extra` more endpoints of this profile's candidates (those that
   * passed its filters), best total score first, earlier candidate first among equals. The scores
   * are already computed, so this is `extra` scans of the totals and nothing else.
   */
  withFallbacks(extra: number): readonly Endpoint[] {
    const n = this.#endpoints.length;
    if (extra <= 0 || n <= this.targets.length) return this.targets;
    const out = [...this.targets];
    // Taken positions as a byte per candidate rather than a Set of endpoints: over 1,000
    // candidates the hashing was a visible share of a decision.
    const taken = new Uint8Array(n);
    for (let i = 0; i < n; i++) if (out.includes(this.#endpoints[i] as Endpoint)) taken[i] = 1;
    for (let k = 0; k < extra; k++) {
      let best = -1;
      for (let i = 0; i < n; i++) {
        if (taken[i] === 1) continue;
        if (best < 0 || (this.#totals[i] as number) > (this.#totals[best] as number)) best = i;
      }
      if (best < 0) break;
      taken[best] = 1;
      out.push(this.#endpoints[best] as Endpoint);
    }
    return out;
  }

  /** Total score of one endpoint (undefined when it was not a candidate). */
  scoreOf(id: string): number | undefined {
    const i = this.#endpoints.findIndex((e) => e.id === id);
    return i < 0 ? undefined : this.#totals[i];
  }
}
