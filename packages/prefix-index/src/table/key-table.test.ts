import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EndpointSlots } from './endpoint-slots.js';
import { KeyTable } from './key-table.js';

describe('KeyTable', () => {
  it('behaves like a Map under random set/delete (property)', () => {
    const key = fc.oneof(fc.integer({ min: 0, max: 64 }), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), fc.constantFrom(2 ** 32, 2 ** 33, 2 ** 52));
    const op = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), key, value: fc.integer({ min: 0, max: 2 ** 31 - 1 }) }),
      fc.record({ kind: fc.constant('delete' as const), key }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 400 }), (ops) => {
        const table = new KeyTable();
        const model = new Map<number, number>();
        for (const o of ops) {
          if (o.kind === 'set') {
            table.set(o.key, o.value);
            model.set(o.key, o.value);
          } else {
            expect(table.delete(o.key)).toBe(model.delete(o.key));
          }
          expect(table.size).toBe(model.size);
        }
        for (const [k, v] of model) expect(table.get(k)).toBe(v);
        const seen = new Map<number, number>();
        table.forEach((k, v) => seen.set(k, v));
        expect(seen).toEqual(model);
      }),
      { numRuns: 300 },
    );
  });

  it('grows and shrinks its arrays with the number of keys', () => {
    const table = new KeyTable();
    const small = table.byteLength;
    for (let i = 0; i < 10_000; i++) table.set(i * 7919, i);
    expect(table.byteLength).toBeGreaterThanOrEqual(10_000 * 2 * 12);
    for (let i = 0; i < 10_000; i++) expect(table.get(i * 7919)).toBe(i);
    for (let i = 0; i < 10_000; i++) table.delete(i * 7919);
    expect(table.size).toBe(0);
    expect(table.byteLength).toBe(small);
    expect(table.get(0)).toBe(-1);
  });
});

describe('EndpointSlots', () => {
  it('reuses released slots', () => {
    const slots = new EndpointSlots();
    expect(slots.acquire('a')).toBe(0);
    expect(slots.acquire('b')).toBe(1);
    expect(slots.acquire('a')).toBe(0);
    expect(slots.release('a')).toBe(0);
    expect(slots.get('a')).toBe(-1);
    expect(slots.acquire('c')).toBe(0);
    expect(slots.idOf(0)).toBe('c');
    expect(slots.capacity).toBe(2);
    expect(slots.size).toBe(2);
    expect(slots.release('zzz')).toBe(-1);
  });
});
