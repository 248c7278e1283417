/*
 * Test helper (not exported from the package): a fake engine that cuts token sequences into
 * blocks and names each block by its whole prefix, like vLLM's chained hashes, so tests can build
 * realistic BlockStored/BlockRemoved events.
 */
import type { BlockRemovedEvent, BlockStoredEvent } from '../kv-events/types.js';

/** Builds KV events for token sequences with a fixed engine block size. */
export class FakeEngine {
  readonly #ids = new Map<string, number>();
  #next = 1000;

  constructor(
    readonly blockSize: number,
    readonly offset = 0,
  ) {}

  /** Engine hash of the block ending at token `end` of `tokens`. */
  hashAt(tokens: readonly number[], end: number): number {
    const k = tokens.slice(0, end).join(',');
    let id = this.#ids.get(k);
    if (id === undefined) {
      id = this.#next++ + this.offset;
      this.#ids.set(k, id);
    }
    return id;
  }

  /** BlockStored for full blocks [from, to) of `tokens` (block indexes). */
  stored(tokens: readonly number[], from: number, to: number, extra: Partial<BlockStoredEvent> = {}): BlockStoredEvent {
    const E = this.blockSize;
    const hashes: number[] = [];
    for (let j = from; j < to; j++) hashes.push(this.hashAt(tokens, (j + 1) * E));
    return {
      type: 'BlockStored',
      blockHashes: hashes,
      parentBlockHash: from === 0 ? undefined : this.hashAt(tokens, from * E),
      tokenIds: tokens.slice(from * E, to * E),
      blockSize: E,
      medium: 'gpu',
      ...extra,
    };
  }

  /** BlockRemoved for block indexes of `tokens`. */
  removed(tokens: readonly number[], blocks: readonly number[], medium = 'gpu'): BlockRemovedEvent {
    return { type: 'BlockRemoved', blockHashes: blocks.map((j) => this.hashAt(tokens, (j + 1) * this.blockSize)), medium };
  }
}

/** Tokens 0..n-1 shifted by `base`. */
export function seq(n: number, base = 0): number[] {
  return Array.from({ length: n }, (_, i) => base + i);
}
