import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { maxScorePickerPlugin, randomPickerPlugin, weightedRandomPickerPlugin, type Endpoint, type Picker } from '@switchyard/core';
import { seededRandom } from '../../clock/seeded-random.js';
import { cycleContext, endpoints, instantiate, schedulingRequest } from '../../testing/index.js';

const picker = (def: Parameters<typeof instantiate>[0], k?: number): Picker =>
  instantiate(def, k === undefined ? {} : { maxNumOfEndpoints: k }) as Picker;

function pickIds(p: Picker, scores: readonly number[], seed = 1): string[] {
  const eps = endpoints(scores.length);
  const scored = eps.map((endpoint, i) => ({ endpoint, score: scores[i] ?? 0 }));
  const ctx = cycleContext({ random: seededRandom(seed) });
  const viaScored = p.pick(ctx, schedulingRequest(), scored).map((e) => e.id);
  const viaArrays = p.pickFrom?.(cycleContext({ random: seededRandom(seed) }), schedulingRequest(), eps, Float64Array.from(scores)).map((e: Endpoint) => e.id);
  expect(viaArrays).toEqual(viaScored);
  return viaScored;
}

describe('max-score-picker (§12 case 6)', () => {
  it('k=1 [10,25,15] → the 25', () => {
    expect(pickIds(picker(maxScorePickerPlugin), [10, 25, 15])).toEqual(['e1']);
  });
  it('k=2 [20,25,30] → [30,25]', () => {
    expect(pickIds(picker(maxScorePickerPlugin, 2), [20, 25, 30])).toEqual(['e2', 'e1']);
  });
  it('k=2 [50,50,30] → both 50s', () => {
    expect(new Set(pickIds(picker(maxScorePickerPlugin, 2), [50, 50, 30]))).toEqual(new Set(['e0', 'e1']));
  });
  it('breaks ties at random, reaching every tied endpoint', () => {
    const seen = new Set<string>();
    for (let seed = 1; seed < 60; seed++) seen.add(pickIds(picker(maxScorePickerPlugin), [1, 3, 3, 3, 2], seed)[0] ?? '');
    expect(seen).toEqual(new Set(['e1', 'e2', 'e3']));
  });
  it('treats maxNumOfEndpoints ≤ 0 as 1 and caps k at the candidate count', () => {
    expect(pickIds(picker(maxScorePickerPlugin, 0), [1, 2])).toEqual(['e1']);
    expect(pickIds(picker(maxScorePickerPlugin, 5), [1, 2])).toEqual(['e1', 'e0']);
  });
  it('returns targets in non-increasing score order (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 12 }), fc.nat(), (scores, k, seed) => {
        const ids = pickIds(picker(maxScorePickerPlugin, k), scores, seed);
        const got = ids.map((id) => scores[Number(id.slice(1))] ?? -1);
        expect(got.length).toBe(Math.min(k, scores.length));
        expect(new Set(ids).size).toBe(ids.length);
        for (let i = 1; i < got.length; i++) expect(got[i]).toBeLessThanOrEqual(got[i - 1] ?? Infinity);
        expect(got[0]).toBe(Math.max(...scores));
      }),
    );
  });
});

describe('random-picker', () => {
  it('returns k distinct endpoints regardless of score', () => {
    const ids = pickIds(picker(randomPickerPlugin, 3), [0, 0, 9, 0, 0]);
    expect(new Set(ids).size).toBe(3);
  });
  it('reaches every endpoint', () => {
    const seen = new Set<string>();
    for (let seed = 1; seed < 80; seed++) seen.add(pickIds(picker(randomPickerPlugin), [5, 0, 0, 0], seed)[0] ?? '');
    expect(seen.size).toBe(4);
  });
});

describe('weighted-random-picker', () => {
  it('never picks a zero-score endpoint while a positive one exists', () => {
    for (let seed = 1; seed < 50; seed++) expect(pickIds(picker(weightedRandomPickerPlugin), [0, 0.2, 0], seed)).toEqual(['e1']);
  });
  it('picks roughly in proportion to score', () => {
    const counts = [0, 0];
    for (let seed = 1; seed <= 2000; seed++) {
      const id = pickIds(picker(weightedRandomPickerPlugin), [1, 3], seed)[0];
      counts[id === 'e0' ? 0 : 1]! += 1;
    }
    expect(counts[1]! / 2000).toBeGreaterThan(0.7);
    expect(counts[1]! / 2000).toBeLessThan(0.8);
  });
  it('falls back to uniform random when every score is ≤ 0', () => {
    const seen = new Set<string>();
    for (let seed = 1; seed < 60; seed++) seen.add(pickIds(picker(weightedRandomPickerPlugin), [0, -1, 0], seed)[0] ?? '');
    expect(seen.size).toBe(3);
  });
  it('returns k distinct endpoints', () => {
    expect(new Set(pickIds(picker(weightedRandomPickerPlugin, 3), [1, 2, 3, 4])).size).toBe(3);
  });
});
