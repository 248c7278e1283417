import type { FlowView } from './types.js';

/**
 * A node of {@link FlowRing}; policies may extend it with their own fields.
 * @public
 * @category Policies
 */
export interface RingNode {
  /** The flow. */
  readonly flow: FlowView;
  /** Previous node in the ring. */
  prev: RingNode;
  /** Next node in the ring. */
  next: RingNode;
}

/**
 * A circular list of the non-empty flows of a band with a cursor: the shared skeleton of
 * round-robin style policies. New flows join just behind the cursor (they wait for the current
 * round to finish), and insertion, removal and advancing are O(1).
 * @public
 * @category Policies
 */
export class FlowRing<N extends RingNode = RingNode> {
  #cursor: N | undefined;
  #size = 0;

  /** Number of flows in the ring. */
  get size(): number {
    return this.#size;
  }

  /** The node whose turn it is. */
  get cursor(): N | undefined {
    return this.#cursor;
  }

  /** Inserts `node` just before the cursor (the end of the current round). */
  insert(node: N): void {
    const c = this.#cursor;
    if (c === undefined) {
      node.prev = node;
      node.next = node;
      this.#cursor = node;
    } else {
      node.prev = c.prev;
      node.next = c;
      c.prev.next = node;
      c.prev = node;
    }
    this.#size++;
  }

  /** Unlinks `node`; the cursor moves to the next node when it pointed at `node`. */
  unlink(node: N): void {
    if (this.#size === 1) {
      this.#cursor = undefined;
    } else {
      node.prev.next = node.next;
      node.next.prev = node.prev;
      if (this.#cursor === node) this.#cursor = node.next as N;
    }
    this.#size--;
  }

  /** Moves the cursor one step. */
  advance(): void {
    if (this.#cursor !== undefined) this.#cursor = this.#cursor.next as N;
  }

  /** Visits every node once, starting at the cursor. */
  forEach(fn: (node: N) => void): void {
    const start = this.#cursor;
    if (start === undefined) return;
    let n: N = start;
    do {
      fn(n);
      n = n.next as N;
    } while (n !== start);
  }
}
