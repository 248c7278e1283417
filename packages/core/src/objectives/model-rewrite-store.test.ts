import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ModelRewriteStore, selectRewriteTarget, type InferenceModelRewrite, type ModelRewriteTarget } from '@switchyard/core';

const to = (modelRewrite: string, weight?: number): ModelRewriteTarget => (weight === undefined ? { modelRewrite } : { modelRewrite, weight });

describe('selectRewriteTarget', () => {
  it('splits by cumulative weight over floor(random * total)', () => {
    const targets = [to('a', 1), to('b', 3)];
    expect(selectRewriteTarget(targets, () => 0)?.modelRewrite).toBe('a');
    expect(selectRewriteTarget(targets, () => 0.249)?.modelRewrite).toBe('a');
    expect(selectRewriteTarget(targets, () => 0.25)?.modelRewrite).toBe('b');
    expect(selectRewriteTarget(targets, () => 0.999999)?.modelRewrite).toBe('b');
  });

  it('never picks an unweighted target while any has a weight', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: undefined }), { minLength: 1, maxLength: 8 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (weights, r) => {
        const targets = weights.map((w, i) => to(`t${i}`, w));
        const chosen = selectRewriteTarget(targets, () => r);
        expect(chosen).toBeDefined();
        if (weights.some((w) => w !== undefined)) expect(chosen?.weight).toBeDefined();
      }),
    );
  });

  it('is uniform when nothing is weighted and empty-safe', () => {
    const targets = [to('a'), to('b'), to('c'), to('d')];
    expect([0, 0.25, 0.5, 0.75].map((r) => selectRewriteTarget(targets, () => r)?.modelRewrite)).toEqual(['a', 'b', 'c', 'd']);
    expect(selectRewriteTarget([], () => 0.5)).toBeUndefined();
  });

  it('matches the weight proportions over a sweep of random values', () => {
    const targets = [to('a', 20), to('b', 80), to('x')];
    const counts = { a: 0, b: 0, x: 0 } as Record<string, number>;
    for (let i = 0; i < 1000; i++) {
      const name = selectRewriteTarget(targets, () => i / 1000)?.modelRewrite ?? 'x';
      counts[name] = (counts[name] ?? 0) + 1;
    }
    expect(counts).toEqual({ a: 200, b: 800, x: 0 });
  });
});

describe('ModelRewriteStore', () => {
  const generic = (name: string, target: string, ts?: number): InferenceModelRewrite => ({
    name,
    rules: [{ matches: [], targets: [to(target)] }],
    ...(ts === undefined ? {} : { creationTimestamp: ts }),
  });
  const exact = (name: string, model: string, target: string, ts?: number): InferenceModelRewrite => ({
    name,
    rules: [{ matches: [model], targets: [to(target)] }],
    ...(ts === undefined ? {} : { creationTimestamp: ts }),
  });

  it('prefers an exact match over a generic rule regardless of age', () => {
    const store = new ModelRewriteStore([generic('g', 'generic-target', 1), exact('e', 'llama', 'exact-target', 99)]);
    expect(store.resolve('llama', () => 0)).toBe('exact-target');
    expect(store.resolve('other', () => 0)).toBe('generic-target');
    expect(store.match('llama')?.rewriteName).toBe('e');
  });

  it('breaks ties by the oldest resource, then by rule order', () => {
    const store = new ModelRewriteStore([exact('new', 'm', 'from-new', 200), exact('old', 'm', 'from-old', 100)]);
    expect(store.resolve('m', () => 0)).toBe('from-old');
    store.set({ name: 'older', creationTimestamp: 50, rules: [{ matches: ['x'], targets: [to('x1')] }, { matches: ['m'], targets: [to('first')] }, { matches: ['m'], targets: [to('second')] }] });
    expect(store.resolve('m', () => 0)).toBe('first');
    store.delete('older');
    expect(store.resolve('m', () => 0)).toBe('from-old');
  });

  it('orders resources without a timestamp after timestamped ones, by insertion, and keeps order on update', () => {
    const store = new ModelRewriteStore([generic('a', 'A'), generic('b', 'B'), generic('c', 'C', 10)]);
    expect(store.resolve('q', () => 0)).toBe('C');
    store.delete('c');
    expect(store.resolve('q', () => 0)).toBe('A');
    store.set(generic('a', 'A2'));
    expect(store.resolve('q', () => 0)).toBe('A2');
    expect(store.list().map((r) => r.name)).toEqual(['a', 'b']);
  });

  it('returns undefined when nothing matches or the rule has no targets', () => {
    const store = new ModelRewriteStore([{ name: 'n', rules: [{ matches: ['m'], targets: [] }] }]);
    expect(store.resolve('m')).toBeUndefined();
    expect(store.resolve('z')).toBeUndefined();
    expect(new ModelRewriteStore().match('m')).toBeUndefined();
  });

  it('filters by pool when given one', () => {
    const store = new ModelRewriteStore([], { poolName: 'p' });
    expect(store.set({ ...exact('x', 'm', 'y'), poolRef: { name: 'q' } })).toBe(false);
    expect(store.set({ ...exact('x', 'm', 'y'), poolRef: { name: 'p' } })).toBe(true);
    expect(store.resolve('m')).toBe('y');
    expect(store.set({ ...exact('x', 'm', 'y'), poolRef: { name: 'q' } })).toBe(false);
    expect(store.get('x')).toBeUndefined();
  });
});
