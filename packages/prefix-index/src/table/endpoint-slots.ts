/**
 * Assigns small integer slots to endpoint ids so indexes can keep per-endpoint data in typed
 * arrays. Slots of removed endpoints are reused.
 * @public
 */
export class EndpointSlots {
  readonly #byId = new Map<string, number>();
  readonly #ids: (string | undefined)[] = [];
  readonly #free: number[] = [];

  /** Slot of `id`, or -1. */
  get(id: string): number {
    return this.#byId.get(id) ?? -1;
  }

  /** Slot of `id`, assigning one when new. */
  acquire(id: string): number {
    const existing = this.#byId.get(id);
    if (existing !== undefined) return existing;
    const slot = this.#free.pop() ?? this.#ids.length;
    this.#ids[slot] = id;
    this.#byId.set(id, slot);
    return slot;
  }

  /** Frees the slot of `id`; returns it, or -1 when unknown. */
  release(id: string): number {
    const slot = this.#byId.get(id);
    if (slot === undefined) return -1;
    this.#byId.delete(id);
    this.#ids[slot] = undefined;
    this.#free.push(slot);
    return slot;
  }

  /** Id in `slot`, if any. */
  idOf(slot: number): string | undefined {
    return this.#ids[slot];
  }

  /** One past the highest slot ever assigned (size of per-slot arrays). */
  get capacity(): number {
    return this.#ids.length;
  }

  /** Number of assigned slots. */
  get size(): number {
    return this.#byId.size;
  }

  /** Assigned ids. */
  ids(): IterableIterator<string> {
    return this.#byId.keys();
  }
}
