import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BlockHashTable } from './hash-table.js';

describe('BlockHashTable (property)', () => {
  it('behaves like a Map under any sequence of set/delete/get, across growth', () => {
    // A small key space forces collisions, long probe runs and backward shifts.
    const key = fc.oneof(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 2 ** 53 - 1 }));
    const op = fc.oneof(
      fc.record({ k: fc.constant('set' as const), key, v: fc.nat(1_000_000) }),
      fc.record({ k: fc.constant('del' as const), key }),
      fc.record({ k: fc.constant('get' as const), key }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 400 }), fc.integer({ min: 1, max: 64 }), (ops, expected) => {
        const t = new BlockHashTable(expected);
        const m = new Map<number, number>();
        for (const o of ops) {
          if (o.k === 'set') {
            t.set(o.key, o.v);
            m.set(o.key, o.v);
          } else if (o.k === 'del') {
            expect(t.delete(o.key)).toBe(m.delete(o.key));
          } else {
            expect(t.get(o.key)).toBe(m.get(o.key) ?? -1);
          }
          expect(t.size).toBe(m.size);
        }
        for (const [k, v] of m) expect(t.get(k)).toBe(v);
        t.clear();
        expect(t.size).toBe(0);
        for (const k of m.keys()) expect(t.has(k)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
