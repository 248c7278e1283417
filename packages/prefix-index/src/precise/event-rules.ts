import type { PrefixHasher } from '../hashing/prefix-hasher.js';
import type { BlockStoredEvent } from '../kv-events/types.js';

const FULL_ATTENTION = /full|mla/i;

/**
 * Whether an event's KV group is indexed: full attention (and MLA, sink-full) only, as in llm-d;
 * sliding-window and Mamba groups hold partial state that cannot serve a prefix.
 * @internal
 */
export function isFullAttention(event: BlockStoredEvent): boolean {
  return event.kvCacheSpecKind === undefined || FULL_ATTENTION.test(event.kvCacheSpecKind);
}

/**
 * The cache salt of a chain's first block: SGLang's `cache_salt` field, else the last string of
 * vLLM's first-block extra keys that is not the LoRA name (vLLM appends the salt there).
 * @internal
 */
export function saltOf(event: BlockStoredEvent): string | undefined {
  if (event.cacheSalt !== undefined) return event.cacheSalt;
  const first = event.extraKeys?.[0];
  if (!Array.isArray(first)) return undefined;
  for (let i = first.length - 1; i >= 0; i--) {
    const v: unknown = first[i];
    if (typeof v === 'string' && v !== event.loraName) return v;
  }
  return undefined;
}

/**
 * Root keys by (model, salt), cached because every prompt's first BlockStored needs one and
 * hashing a model name means encoding a string. Bounded: cleared when it reaches 4,096 entries.
 * @internal
 */
export class RootKeyCache {
  readonly #hasher: PrefixHasher;
  readonly #roots = new Map<string, number>();

  constructor(hasher: PrefixHasher) {
    this.#hasher = hasher;
  }

  /** Root key of (model, salt). */
  get(model: string, salt: string | undefined): number {
    const id = salt === undefined ? model : `${model}\u0000${salt}`;
    let key = this.#roots.get(id);
    if (key === undefined) {
      key = this.#hasher.rootKey(model, salt);
      if (this.#roots.size >= 4096) this.#roots.clear();
      this.#roots.set(id, key);
    }
    return key;
  }
}
