import { describe, expect, it } from 'vitest';
import { ObjectiveStore } from '@switchyard/core';

describe('ObjectiveStore', () => {
  it('sets, replaces, gets, lists and deletes by name', () => {
    const store = new ObjectiveStore([{ name: 'a', priority: 1 }]);
    store.set({ name: 'b', priority: -5 });
    store.set({ name: 'a', priority: 7 });
    expect(store.get('a')?.priority).toBe(7);
    expect(store.list().map((o) => o.name)).toEqual(['a', 'b']);
    expect(store.size).toBe(2);
    expect(store.delete('a')).toBe(true);
    expect(store.delete('a')).toBe(false);
    expect(store.get('a')).toBeUndefined();
  });

  it('maps names to priorities with 0 for unknown, empty or absent names', () => {
    const store = new ObjectiveStore([{ name: 'premium', priority: 100 }, { name: 'batch', priority: -10 }]);
    expect(store.priorityOf('premium')).toBe(100);
    expect(store.priorityOf('batch')).toBe(-10);
    expect(store.priorityOf('nope')).toBe(0);
    expect(store.priorityOf('')).toBe(0);
    expect(store.priorityOf(undefined)).toBe(0);
  });

  it('keeps only objectives for its pool when given one', () => {
    const store = new ObjectiveStore([], { poolName: 'p1' });
    expect(store.set({ name: 'mine', priority: 1, poolRefs: [{ name: 'p2' }, { name: 'p1' }] })).toBe(true);
    expect(store.set({ name: 'any', priority: 2 })).toBe(true);
    expect(store.set({ name: 'other', priority: 3, poolRefs: [{ name: 'p2' }] })).toBe(false);
    expect(store.priorityOf('other')).toBe(0);
    // Moving an objective to another pool removes it.
    store.set({ name: 'mine', priority: 1, poolRefs: [{ name: 'p3' }] });
    expect(store.get('mine')).toBeUndefined();
  });
});
