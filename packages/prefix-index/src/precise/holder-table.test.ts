import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HolderTable } from './holder-table.js';

const TIERS = 3;

/** Reference model: (key, slot) → per-tier counts, an entry existing while any count is above 0. */
class Model {
  readonly counts = new Map<string, number[]>();
  adjust(key: number, slot: number, tier: number, delta: number): void {
    const id = `${key}/${slot}`;
    const c = this.counts.get(id) ?? new Array<number>(TIERS).fill(0);
    if (!this.counts.has(id) && delta <= 0) return;
    c[tier] = Math.max(0, (c[tier] as number) + delta);
    if (c.every((v) => v === 0)) this.counts.delete(id);
    else this.counts.set(id, c);
  }
  clearTier(key: number, slot: number, tier: number): void {
    const c = this.counts.get(`${key}/${slot}`);
    if (c === undefined) return;
    this.adjust(key, slot, tier, -(c[tier] as number));
  }
}

describe('HolderTable', () => {
  it('hinted adjust and clearTier behave as the lookups do, whatever the hint (property)', () => {
    // Few keys and slots, so entries are freed and reused for other (key, slot) pairs: stale hints.
    const key = fc.constantFrom(1, 2, 3, 2 ** 40 + 7, 2 ** 52 - 1);
    const slot = fc.integer({ min: 0, max: 3 });
    const tier = fc.integer({ min: 0, max: TIERS - 1 });
    const op = fc.record({
      kind: fc.constantFrom('adjust', 'adjustAt', 'clearTier', 'clearTierAt', 'removeOwner'),
      key,
      slot,
      tier,
      delta: fc.integer({ min: -2, max: 2 }),
      hint: fc.integer({ min: 0, max: 40 }),
    });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const table = new HolderTable(TIERS);
        const model = new Model();
        // Hints as the speculation ring keeps them: entries returned by earlier operations.
        const returned: number[] = [-1];
        for (const o of ops) {
          const hint = returned[o.hint % returned.length] as number;
          if (o.kind === 'adjust') returned.push(table.adjust(o.key, o.slot, o.tier, o.delta));
          else if (o.kind === 'adjustAt') returned.push(table.adjustAt(hint, o.key, o.slot, o.tier, o.delta));
          else if (o.kind === 'clearTier') table.clearTier(o.key, o.slot, o.tier);
          else if (o.kind === 'clearTierAt') table.clearTierAt(hint, o.key, o.slot, o.tier);
          else {
            table.removeOwner(o.slot);
            for (const id of [...model.counts.keys()]) if (id.endsWith(`/${o.slot}`)) model.counts.delete(id);
          }
          if (o.kind === 'adjust' || o.kind === 'adjustAt') model.adjust(o.key, o.slot, o.tier, o.delta);
          if (o.kind === 'clearTier' || o.kind === 'clearTierAt') model.clearTier(o.key, o.slot, o.tier);
          expect(table.size).toBe(model.counts.size);
        }
        for (const k of [1, 2, 3, 2 ** 40 + 7, 2 ** 52 - 1]) {
          for (let s = 0; s < 4; s++) {
            const e = table.find(k, s);
            const c = model.counts.get(`${k}/${s}`);
            expect(e >= 0).toBe(c !== undefined);
            if (c !== undefined) {
              for (let t = 0; t < TIERS; t++) expect(table.data[e * table.stride + 2 + t]).toBe(c[t]);
              expect(table.ownerOf(e)).toBe(s);
            }
          }
          // The key's holder chain lists exactly the slots the model has for it.
          const chain: number[] = [];
          for (let e = table.table.get(k); e !== -1; e = table.nextOf(e)) chain.push(table.ownerOf(e));
          const expected = [0, 1, 2, 3].filter((s) => model.counts.has(`${k}/${s}`));
          expect(chain.sort()).toEqual(expected);
        }
      }),
      { numRuns: 300 },
    );
  });
});
