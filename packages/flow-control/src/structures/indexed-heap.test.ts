import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IndexedHeap } from './indexed-heap.js';

interface Node {
  key: number;
  seq: number;
  at: number;
}

const less = (a: Node, b: Node): boolean => a.key < b.key || (a.key === b.key && a.seq < b.seq);
const make = (): IndexedHeap<Node> => new IndexedHeap<Node>(less, { get: (n) => n.at, set: (n, i) => (n.at = i) });

type Op = { kind: 'push'; key: number } | { kind: 'pop' } | { kind: 'remove'; pick: number } | { kind: 'update'; pick: number; key: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('push' as const), key: fc.integer({ min: 0, max: 20 }) }),
  fc.record({ kind: fc.constant('pop' as const) }),
  fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('update' as const), pick: fc.nat(), key: fc.integer({ min: 0, max: 20 }) }),
);

describe('IndexedHeap', () => {
  it('behaves like a sorted list under any mix of push, pop, remove and update (property)', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const heap = make();
        let model: Node[] = [];
        let seq = 0;
        for (const o of ops) {
          if (o.kind === 'push') {
            const n = { key: o.key, seq: seq++, at: -1 };
            heap.push(n);
            model.push(n);
          } else if (o.kind === 'pop') {
            model.sort((a, b) => (less(a, b) ? -1 : 1));
            expect(heap.pop()).toBe(model.shift());
          } else if (model.length > 0) {
            const target = model[o.pick % model.length]!;
            if (o.kind === 'remove') {
              expect(heap.remove(target)).toBe(true);
              expect(heap.remove(target)).toBe(false);
              expect(target.at).toBe(-1);
              model = model.filter((n) => n !== target);
            } else {
              target.key = o.key;
              heap.update(target);
            }
          }
          expect(heap.size).toBe(model.length);
          heap.items().forEach((n, i) => { expect(n.at).toBe(i); });
        }
        model.sort((a, b) => (less(a, b) ? -1 : 1));
        const drained: Node[] = [];
        for (let n = heap.pop(); n !== undefined; n = heap.pop()) drained.push(n);
        expect(drained).toEqual(model);
      }),
    );
  });
  it('rebuilds after bulk key changes and drains everything', () => {
    const heap = make();
    const nodes = [5, 3, 8, 1].map((key, seq) => ({ key, seq, at: -1 }));
    nodes.forEach((n) => { heap.push(n); });
    for (const n of nodes) n.key = -n.key;
    heap.rebuild();
    expect(heap.peek()?.key).toBe(-8);
    const all = heap.drain();
    expect(all).toHaveLength(4);
    expect(heap.size).toBe(0);
    expect(all.every((n) => n.at === -1)).toBe(true);
  });
});
