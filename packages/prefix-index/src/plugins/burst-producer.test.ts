import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EndpointPicker, EndpointPool, ManualClock, createDefaultRegistry, loadConfig, parseRequest } from '@switchyard/core';
import { registerPrefixIndexPlugins } from '@switchyard/prefix-index';
import { assignBurst } from './burst-assign.js';

// deploy/config/epp-burst-prefix-cache-config.yaml of llm-d-router, with the estimate tokenizer.
const doc = (params: string) => `
apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
  - type: single-profile-handler
  - type: decode-filter
  - type: burst-prefix-cache-producer
    parameters: ${params}
  - type: prefix-cache-scorer
    parameters:
      prefixMatchInfoProducerName: burst-prefix-cache-producer
  - type: load-aware-scorer
  - type: max-score-picker
schedulingProfiles:
  - name: default
    plugins:
      - pluginRef: decode-filter
      - pluginRef: prefix-cache-scorer
        weight: 2.0
      - pluginRef: load-aware-scorer
        weight: 1.0
      - pluginRef: max-score-picker
`;

const prompt = (group: string) => parseRequest({ path: '/v1/completions', headers: {}, body: JSON.stringify({ model: 'm', prompt: `${group} `.repeat(400) }) });

function setup(params: string) {
  const clock = new ManualClock();
  const pool = new EndpointPool();
  for (let i = 0; i < 4; i++) pool.add({ id: `e${i}`, address: `10.0.0.${i + 1}:8000` });
  const config = loadConfig(doc(params), { registry: registerPrefixIndexPlugins(createDefaultRegistry()), pool, clock });
  return { clock, pool, picker: new EndpointPicker({ pool, clock, config, random: () => 0.5, staleness: { policy: 'ignore' } }) };
}

describe('burst-prefix-cache-producer', () => {
  it('holds a burst for the window, then puts each group of identical prompts on one replica', async () => {
    const { clock, picker } = setup('{windowDurationMs: 100, maxPerReplica: -1, minColocateBlocks: 0}');
    const pending = ['a', 'b', 'a', 'b', 'a', 'b'].map((g) => picker.pick(prompt(g)));
    let settled = 0;
    for (const p of pending) void p.then(() => settled++);
    await Promise.resolve();
    expect(settled).toBe(0);
    clock.advance(100);
    const decisions = await Promise.all(pending);
    const targets = decisions.map((d) => d.primary.id);
    expect(new Set([targets[0], targets[2], targets[4]]).size).toBe(1);
    expect(new Set([targets[1], targets[3], targets[5]]).size).toBe(1);
    expect(targets[0]).not.toBe(targets[1]);
    for (const d of decisions) d.complete({ kind: 'success' });
  });

  it('spills a group past maxPerReplica to the next replica', async () => {
    const { clock, picker } = setup('{maxPerReplica: 2}');
    const pending = [1, 2, 3, 4].map(() => picker.pick(prompt('same')));
    clock.advance(100);
    const targets = (await Promise.all(pending)).map((d) => d.primary.id);
    expect(targets[0]).toBe(targets[1]);
    expect(targets[2]).toBe(targets[3]);
    expect(targets[0]).not.toBe(targets[2]);
  });

  it('rejects llm-d-invalid parameters naming them', () => {
    expect(() => setup('{windowDurationMs: 0}')).toThrow(/windowDurationMs/);
    expect(() => setup('{maxPerReplica: 0}')).toThrow(/maxPerReplica/);
    expect(() => setup('{maxPrefixTokensToMatch: 10}')).toThrow(/maxPrefixTokensToMatch/);
    expect(() => setup('{balanceBy: bytes}')).toThrow(/balanceBy/);
  });

  it('places every member of a group together when unlimited, and never over maxPerReplica (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 30 }), fc.constantFrom(-1, 1, 2, 3), (groups, max) => {
        const members = groups.map((g) => ({ keys: [g * 10 + 1, g * 10 + 2], candidates: ['x', 'y', 'z'] }));
        const out = assignBurst(members, { maxPerReplica: max, minColocateBlocks: 0, balanceBy: 'requests', running: () => 0 });
        for (const g of new Set(groups)) {
          const idx = groups.flatMap((h, i) => (h === g ? [i] : []));
          const placed = idx.map((i) => out[i]);
          if (idx.length < 2) expect(placed).toEqual([undefined]);
          else if (max === -1) expect(new Set(placed).size).toBe(1);
          else if (idx.length <= 3 * max) for (const r of new Set(placed)) expect(placed.filter((p) => p === r).length).toBeLessThanOrEqual(max);
        }
      }),
    );
  });
});
