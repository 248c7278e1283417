import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemberList, type Membership } from './member-list.js';

describe('MemberList', () => {
  it('behaves like a set of its members under any sequence of adds and removes', () => {
    const op = fc.oneof(fc.record({ add: fc.integer({ min: 0, max: 20 }) }), fc.record({ remove: fc.nat(40) }), fc.constant('clear' as const));
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const list = new MemberList<number>();
        const handles: Membership<number>[] = [];
        const model = new Map<Membership<number>, number>();
        for (const o of ops) {
          if (o === 'clear') {
            list.clear();
            model.clear();
          } else if ('add' in o) {
            const h = list.add(o.add);
            handles.push(h);
            model.set(h, o.add);
          } else if (handles.length > 0) {
            // Any handle, removed already or not: removal is idempotent.
            const h = handles[o.remove % handles.length] as Membership<number>;
            list.remove(h);
            model.delete(h);
          }
          expect(list.size).toBe(model.size);
          expect([...list.values()].sort()).toEqual([...model.values()].sort());
        }
      }),
    );
  });

  it('clears a removed membership so that nothing dead points at a live member', () => {
    const list = new MemberList<{ id: number }>();
    const a = list.add({ id: 1 });
    const b = list.add({ id: 2 });
    const c = list.add({ id: 3 });
    list.remove(b);
    expect(b.value).toBeUndefined();
    expect(b.prev).toBeUndefined();
    expect(b.next).toBeUndefined();
    expect(b.list).toBeUndefined();
    expect(list.values().map((v) => v.id).sort()).toEqual([1, 3]);
    list.clear();
    for (const m of [a, c]) {
      expect(m.value).toBeUndefined();
      expect(m.next).toBeUndefined();
    }
    expect(list.size).toBe(0);
  });

  it('ignores a membership of another list', () => {
    const one = new MemberList<string>();
    const two = new MemberList<string>();
    const m = one.add('x');
    two.remove(m);
    expect(one.size).toBe(1);
    expect(two.size).toBe(0);
  });
});
