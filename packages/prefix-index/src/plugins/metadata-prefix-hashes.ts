import { ROUTING_METADATA_NAMESPACE, type RequestMetadata } from '@switchyard/core';

/**
 * Field of the `llm-d.routing` metadata namespace that carries a request's block-hash chain. @public
 * @category Plugins
 */
export const PREFIX_HASHES_FIELD = 'prefix_hashes';

/** Largest uint64, as the decimal string an upstream processor writes. */
const UINT64_MAX = '18446744073709551615';

/**
 * Reads one decimal uint64 (`"0"` … `"18446744073709551615"`, leading zeros allowed) into its
 * canonical decimal form, or `undefined` when it is not one. Strings, because a protobuf `Value`
 * number is a double and would round hashes above 2^53; a JSON number is accepted only while it
 * is a safe integer, so it is exact.
 * @public
 * @category Plugins
 */
export function canonicalUint64(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
  if (typeof value !== 'string' || value.length === 0 || value.length > 64) return undefined;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 48 || c > 57) return undefined;
  }
  let start = 0;
  while (start < value.length - 1 && value.charCodeAt(start) === 48) start++;
  const digits = start === 0 ? value : value.slice(start);
  if (digits.length > UINT64_MAX.length || (digits.length === UINT64_MAX.length && digits > UINT64_MAX)) return undefined;
  return digits;
}

/**
 * Outcome of {@link readPrefixHashes}: the chain in canonical decimal form, nothing (the request
 * carries no hashes), or an error naming the bad field.
 * @public
 * @category Plugins
 */
export type PrefixHashesRead =
  | { readonly kind: 'hashes'; readonly hashes: readonly string[] }
  | { readonly kind: 'absent' }
  | { readonly kind: 'invalid'; readonly error: string };

/**
 * Reads `llm-d.routing.prefix_hashes` from request metadata: a list of decimal uint64 strings,
 * head block first (a single comma-separated string is read the same way).
 * @public
 * @category Plugins
 */
export function readPrefixHashes(metadata: RequestMetadata | undefined): PrefixHashesRead {
  const raw = metadata?.[ROUTING_METADATA_NAMESPACE]?.[PREFIX_HASHES_FIELD];
  const field = `${ROUTING_METADATA_NAMESPACE}.${PREFIX_HASHES_FIELD}`;
  if (raw === undefined || raw === null) return { kind: 'absent' };
  const items: readonly unknown[] | undefined = Array.isArray(raw) ? raw : typeof raw === 'string' ? (raw.trim() === '' ? [] : raw.split(',').map((s) => s.trim())) : undefined;
  if (items === undefined) return { kind: 'invalid', error: `${field}: expected a list of decimal uint64 strings, got ${typeof raw}` };
  const hashes: string[] = [];
  for (let i = 0; i < items.length; i++) {
    const h = canonicalUint64(items[i]);
    if (h === undefined) {
      const v = items[i];
      // String(), not JSON.stringify, for non-strings: it never answers undefined (functions, undefined).
      const shown = typeof v === 'string' ? JSON.stringify(v) : String(v);
      return { kind: 'invalid', error: `${field}[${i}]: not a decimal uint64 (${shown.slice(0, 40)})` };
    }
    hashes.push(h);
  }
  return { kind: 'hashes', hashes };
}

/**
 * Maps uint64 block hashes onto the index's 53-bit keys without collisions: each distinct hash
 * gets the next key of a counter, never reused, so two different hashes never share a key (2^53
 * keys outlast any process). The table is bounded: the least recently seen hash is forgotten
 * first, and a forgotten hash seen again gets a fresh key, which costs a cache miss for blocks
 * learnt under its old key but never a false match.
 * @public
 * @category Plugins
 */
export class Uint64KeyInterner {
  readonly #keys = new Map<string, number>();
  readonly #capacity: number;
  #next = 1;

  /** `capacity`: distinct hashes remembered (at least 1). */
  constructor(capacity: number) {
    this.#capacity = Math.max(1, Math.floor(capacity));
  }

  /** Distinct hashes remembered now. */
  get size(): number {
    return this.#keys.size;
  }

  /** Key of `hash` (canonical decimal), assigning a new one for a hash not remembered. */
  keyOf(hash: string): number {
    const keys = this.#keys;
    const known = keys.get(hash);
    if (known !== undefined) {
      // Re-insert, so Map order is recency order and the oldest entry is the first one.
      keys.delete(hash);
      keys.set(hash, known);
      return known;
    }
    const key = this.#next++;
    keys.set(hash, key);
    if (keys.size > this.#capacity) {
      const oldest = keys.keys().next();
      if (oldest.done !== true) keys.delete(oldest.value);
    }
    return key;
  }

  /** Key of `hash` when remembered, without assigning one or refreshing its recency. */
  peek(hash: string): number | undefined {
    return this.#keys.get(hash);
  }
}
