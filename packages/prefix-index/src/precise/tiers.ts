/**
 * Default weight of each cache tier in precise matches: a block in GPU memory is worth a full
 * hit, one offloaded to CPU memory a little less (it must be copied back first).
 * @public
 * @category Precise
 */
export const DEFAULT_TIER_WEIGHTS: Readonly<Record<string, number>> = { gpu: 1.0, cpu: 0.8 };

/**
 * Maps storage media (`gpu`, `cpu`, ...) to a small fixed set of tier slots with weights. Media
 * that are not configured share one last slot weighted `otherWeight`, so the per-entry storage
 * stays fixed whatever an engine sends. The speculative slot holds entries added by routing
 * decisions before the engine confirms them.
 * @internal
 */
export class TierTable {
  readonly names: readonly string[];
  readonly weights: Float64Array;
  /** Slot of media not listed in the weights. */
  readonly otherSlot: number;
  /** Slot of speculative (not yet confirmed) entries. */
  readonly speculativeSlot: number;
  readonly #bySlot = new Map<string, number>();
  #lastMedium = '';
  #lastSlot = 0;

  constructor(weights: Readonly<Record<string, number>>, otherWeight: number, speculativeWeight: number) {
    const entries = Object.entries(weights).map(([n, w]) => [n.toLowerCase(), w] as const);
    const names = entries.map(([n]) => n);
    this.names = [...names, '(other)', '(speculative)'];
    this.weights = new Float64Array(this.names.length);
    entries.forEach(([n, w], i) => {
      this.weights[i] = w;
      this.#bySlot.set(n, i);
    });
    this.otherSlot = names.length;
    this.speculativeSlot = names.length + 1;
    this.weights[this.otherSlot] = otherWeight;
    this.weights[this.speculativeSlot] = speculativeWeight;
    this.#lastSlot = this.otherSlot;
  }

  /** Number of slots (configured media + other + speculative). */
  get size(): number {
    return this.names.length;
  }

  /** Slot of a (lower-case) medium. */
  slotOf(medium: string): number {
    // Nearly every event names the same medium: skip the map lookup for a repeat.
    if (medium === this.#lastMedium) return this.#lastSlot;
    const slot = this.#bySlot.get(medium) ?? this.otherSlot;
    this.#lastMedium = medium;
    this.#lastSlot = slot;
    return slot;
  }
}
