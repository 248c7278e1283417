/**
 * Fields an {@link IdleList} keeps on its members (intrusive, so membership costs no allocation).
 * @public
 */
export interface IdleNode {
  /** Clock time at which the member became idle. */
  idleSince: number;
  /** Previous member (older). */
  idlePrev: IdleNode | undefined;
  /** Next member (newer). */
  idleNext: IdleNode | undefined;
  /** Whether the node is in a list. */
  idle: boolean;
}

/**
 * Members that became idle, oldest first. Because time never goes backwards, appending at the
 * tail keeps the list sorted by `idleSince`, so garbage collection only ever looks at the head:
 * O(1) per touch and per collected member, no scans.
 * @public
 */
export class IdleList<T extends IdleNode> {
  #head: T | undefined;
  #tail: T | undefined;
  #size = 0;

  /** Members in the list. */
  get size(): number {
    return this.#size;
  }

  /** The member idle the longest. */
  get oldest(): T | undefined {
    return this.#head;
  }

  /** Appends `node` as idle since `now` (moving it to the tail if it was already in). */
  touch(node: T, now: number): void {
    if (node.idle) this.remove(node);
    node.idleSince = now;
    node.idle = true;
    node.idlePrev = this.#tail;
    node.idleNext = undefined;
    if (this.#tail === undefined) this.#head = node;
    else this.#tail.idleNext = node;
    this.#tail = node;
    this.#size++;
  }

  /** Takes `node` out of the list (no-op when it is not in). */
  remove(node: T): void {
    if (!node.idle) return;
    const prev = node.idlePrev as T | undefined;
    const next = node.idleNext as T | undefined;
    if (prev === undefined) this.#head = next;
    else prev.idleNext = next;
    if (next === undefined) this.#tail = prev;
    else next.idlePrev = prev;
    node.idlePrev = undefined;
    node.idleNext = undefined;
    node.idle = false;
    this.#size--;
  }
}
