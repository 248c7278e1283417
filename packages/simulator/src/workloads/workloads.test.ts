import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  agenticWorkload,
  commonPrefixLength,
  generatedLength,
  azureTraceWorkload,
  detectTickMs,
  traceWorkload,
  loraMixWorkload,
  materializePrompt,
  mooncakeTraceWorkload,
  multiTenantWorkload,
  multiTurnWorkload,
  prefixParts,
  sharedPrefixWorkload,
  type PromptPart,
  type Workload,
} from '@switchyard/simulator';

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};
const consistent = (w: Workload): void => {
  const ids = new Set<string>();
  let last = -Infinity;
  for (const it of w.items) {
    expect(ids.has(it.id)).toBe(false);
    ids.add(it.id);
    expect(it.arrivalMs).toBeGreaterThanOrEqual(last);
    last = it.arrivalMs;
    expect(it.maxOutputTokens).toBeGreaterThan(0);
    if (it.after !== undefined) expect(ids.has(it.after) || w.items.some((x) => x.id === it.after)).toBe(true);
  }
};

describe('workload generators', () => {
  it('are deterministic for a seed and differ across seeds', () => {
    const gens: ((seed: number) => Workload)[] = [
      (seed) => sharedPrefixWorkload({ seed, durationMs: 10_000 }),
      (seed) => agenticWorkload({ seed, scale: 0.01, durationMs: 60_000, sessionRate: 0.1 }),
      (seed) => multiTurnWorkload({ seed, conversations: 4 }),
      (seed) => multiTenantWorkload({ seed, durationMs: 10_000 }),
      (seed) => loraMixWorkload({ seed, durationMs: 10_000 }),
    ];
    for (const g of gens) {
      const a = g(7);
      expect(JSON.stringify(a)).toBe(JSON.stringify(g(7)));
      expect(JSON.stringify(a.items)).not.toBe(JSON.stringify(g(8).items));
      consistent(a);
      for (const it of a.items.slice(0, 50)) expect(materializePrompt(it).length).toBe(it.promptLength);
    }
  });

  it('shared-prefix: groups share exactly their system prompt and every prompt recurs', () => {
    const w = sharedPrefixWorkload({ numGroups: 4, numPromptsPerGroup: 3, systemPromptLen: 200, questionLen: 40, rate: 20, durationMs: 30_000, seed: 3 });
    expect(w.items.length).toBeGreaterThan(500);
    expect(w.items.length).toBeLessThan(700);
    const byGroup = new Map<string, typeof w.items>();
    for (const it of w.items) byGroup.set(it.session!, [...(byGroup.get(it.session!) ?? []), it]);
    expect(byGroup.size).toBe(4);
    const [g0, g1] = [...byGroup.values()];
    const distinct = g0!.find((x) => commonPrefixLength(x.prompt, g0![0]!.prompt) < 240)!;
    expect(commonPrefixLength(distinct.prompt, g0![0]!.prompt)).toBeGreaterThanOrEqual(200);
    expect(commonPrefixLength(g0![0]!.prompt, g1![0]!.prompt)).toBeLessThan(4);
    // The first 12 requests are one full round: every (group, question) once.
    const firstRound = new Set(w.items.slice(0, 12).map((x) => materializePrompt(x).join(',')));
    expect(firstRound.size).toBe(12);
    // Each round draws a fresh order, unless fixedOrder repeats one (inference-perf's cycle).
    const rounds = (x: Workload): string[][] => [0, 1, 2].map((r) => x.items.slice(12 * r, 12 * r + 12).map((it) => materializePrompt(it).join(',')));
    const fresh = rounds(w);
    expect(fresh[1]).not.toEqual(fresh[0]);
    const fixed = rounds(sharedPrefixWorkload({ numGroups: 4, numPromptsPerGroup: 3, systemPromptLen: 200, questionLen: 40, rate: 20, durationMs: 30_000, seed: 3, fixedOrder: true }));
    expect(fixed[0]).toEqual(fresh[0]);
    expect(fixed[1]).toEqual(fixed[0]);
    expect(fixed[2]).toEqual(fixed[0]);
  });

  it('agentic: main-agent input ≈195K·scale, output ≈317 (stopping before max_tokens), ≈96% reuse ≥90% of the previous input, sub-agent fan-out', () => {
    const scale = 0.05;
    const w = agenticWorkload({ scale, sessionRate: 0.2, durationMs: 200_000, seed: 11 });
    consistent(w);
    const main = w.items.filter((x) => !x.id.includes('-sub-'));
    const subs = w.items.filter((x) => x.id.includes('-sub-'));
    const inputs = main.map((x) => x.promptLength);
    expect(median(inputs)).toBeGreaterThan(195_000 * scale * 0.85);
    expect(median(inputs)).toBeLessThan(195_000 * scale * 1.15);
    // Answers are not scaled with the context: median ≈317 tokens, below max_tokens.
    expect(median(w.items.map(generatedLength))).toBeGreaterThan(317 * 0.8);
    expect(median(w.items.map(generatedLength))).toBeLessThan(317 * 1.25);
    for (const it of w.items) expect(generatedLength(it)).toBeLessThanOrEqual(it.maxOutputTokens);
    // Sub-agents start from the sessions' shared system prompt once their parent turn is done.
    expect(subs.length).toBeGreaterThan(main.length * 0.2);
    for (const it of subs) expect(commonPrefixLength(it.prompt, main[0]!.prompt)).toBeGreaterThanOrEqual(Math.round(20_000 * scale));
    const byId = new Map(w.items.map((x) => [x.id, x]));
    let reusing = 0;
    for (const it of main) {
      const prev = it.after === undefined ? undefined : byId.get(it.after);
      if (prev !== undefined && commonPrefixLength(prev.prompt, it.prompt) >= 0.9 * it.promptLength) reusing++;
    }
    const share = reusing / main.length;
    expect(share).toBeGreaterThan(0.94);
    expect(share).toBeLessThan(0.985);
  });

  it('multi-turn: each turn resends the history plus the previous answer', () => {
    const w = multiTurnWorkload({ conversations: 3, seed: 5 });
    consistent(w);
    const byId = new Map(w.items.map((x) => [x.id, x]));
    const convs = new Set(w.items.map((x) => x.session));
    expect(convs.size).toBe(3);
    for (const it of w.items) {
      expect(it.promptLength).toBeGreaterThanOrEqual(500 + 16 + 120);
      if (it.after === undefined) continue;
      const prev = byId.get(it.after)!;
      const cur = materializePrompt(it);
      const expectedPrefix = materializePrompt([...prev.prompt, { seed: prev.outputSeed, length: generatedLength(prev) }]);
      expect([...cur.subarray(0, expectedPrefix.length)]).toEqual([...expectedPrefix]);
      expect(it.delayMs).toBeGreaterThanOrEqual(0);
    }
    const firsts = w.items.filter((x) => x.after === undefined);
    expect(commonPrefixLength(firsts[0]!.prompt, firsts[1]!.prompt)).toBeGreaterThanOrEqual(500);
  });

  it('multi-tenant: per-tenant rates, priorities and bursts', () => {
    const w = multiTenantWorkload({ durationMs: 120_000, seed: 2 });
    const count = (t: string): number => w.items.filter((x) => x.tenant === t).length;
    expect(count('interactive')).toBeGreaterThan(300);
    expect(count('interactive')).toBeLessThan(420);
    // batch: 2/s, ×4 during 10 s of every 30 s → 4/s on average.
    expect(count('batch')).toBeGreaterThan(400);
    expect(count('batch')).toBeLessThan(560);
    const inBurst = w.items.filter((x) => x.tenant === 'batch' && x.arrivalMs % 30_000 < 10_000).length;
    expect(inBurst / count('batch')).toBeGreaterThan(0.55);
    expect(new Set(w.items.filter((x) => x.tenant === 'batch').map((x) => x.priority))).toEqual(new Set([-1]));
  });

  it('lora-mix: Zipf adapter popularity plus a base share', () => {
    const w = loraMixWorkload({ rate: 50, durationMs: 60_000, seed: 4 });
    const n = (a: string | undefined): number => w.items.filter((x) => x.adapter === a).length;
    expect(n(undefined) / w.items.length).toBeGreaterThan(0.17);
    expect(n(undefined) / w.items.length).toBeLessThan(0.23);
    expect(n('lora-0')).toBeGreaterThan(n('lora-1'));
    expect(n('lora-1')).toBeGreaterThan(n('lora-7'));
  });
});

describe('Mooncake trace replay', () => {
  const trace = [
    '{"timestamp": 1000, "input_length": 1200, "output_length": 10, "hash_ids": [1, 2, 3]}',
    '{"timestamp": 1500, "input_length": 1100, "output_length": 20, "hash_ids": [1, 2, 9]}',
    '',
    '{"timestamp": 3000, "input_length": 2000, "output_length": 5, "hash_ids": [1, 7]}',
  ].join('\n');

  it('shares exactly the leading hashed blocks', () => {
    const w = mooncakeTraceWorkload(trace, { speedup: 2 });
    expect(w.items.map((x) => x.arrivalMs)).toEqual([0, 250, 1000]);
    expect(w.items.map((x) => x.promptLength)).toEqual([1200, 1100, 2000]);
    expect(materializePrompt(w.items[2]!).length).toBe(2000); // 1024 hashed + 976 unique
    expect(commonPrefixLength(w.items[0]!.prompt, w.items[1]!.prompt)).toBe(1024);
    expect(commonPrefixLength(w.items[0]!.prompt, w.items[2]!.prompt)).toBe(512);
    expect(mooncakeTraceWorkload(trace, { maxRequests: 2 }).items).toHaveLength(2);
  });

  it('names the line and field of a bad record', () => {
    expect(() => mooncakeTraceWorkload('{"timestamp": 0, "input_length": 5, "output_length": 1, "hash_ids": [1]}\n{"timestamp": 1, "input_length": -3, "output_length": 1, "hash_ids": []}')).toThrow(/line 2.input_length/);
    expect(() => mooncakeTraceWorkload('not json')).toThrow(/line 1: invalid JSON/);
  });
});

describe('prompt parts (property)', () => {
  const partArb: fc.Arbitrary<PromptPart> = fc.oneof(
    fc.record({ seed: fc.nat(), offset: fc.nat(100), length: fc.integer({ min: 1, max: 60 }) }),
    fc.array(fc.nat(), { minLength: 1, maxLength: 30 }).map((a) => Uint32Array.from(a)),
  );
  it('prefixParts is a prefix of the materialized prompt', () => {
    fc.assert(
      fc.property(fc.array(partArb, { maxLength: 8 }), fc.nat(400), (parts, n) => {
        const full = materializePrompt(parts);
        const pre = materializePrompt(prefixParts(parts, n));
        expect([...pre]).toEqual([...full.subarray(0, Math.min(n, full.length))]);
        expect(commonPrefixLength(parts, prefixParts(parts, n))).toBe(Math.min(n, full.length));
      }),
    );
  });
});

describe('zipf prefix popularity', () => {
  it('makes a few groups hot and leaves a long tail', () => {
    const w = sharedPrefixWorkload({ numGroups: 100, numPromptsPerGroup: 4, rate: 50, durationMs: 60_000, zipf: 1.1, seed: 3 });
    const counts = new Map<string, number>();
    for (const it of w.items) counts.set(it.session ?? '', (counts.get(it.session ?? '') ?? 0) + 1);
    const sorted = [...counts.values()].sort((a, b) => b - a);
    // Rank 1 against rank 10 of a Zipf(1.1): ≈ 10^1.1 ≈ 12.6×.
    expect((sorted[0] ?? 0) / (sorted[9] ?? 1)).toBeGreaterThan(6);
    expect(counts.get('group-0')).toBe(sorted[0]);
    expect(() => sharedPrefixWorkload({ zipf: -1 })).toThrow(/workload.zipf/);
  });
});

describe('trace replay', () => {
  const quantised = (n: number): string =>
    Array.from({ length: n }, (_, i) => JSON.stringify({ timestamp: Math.floor(i / 10) * 3000, input_length: 1024, output_length: 8, hash_ids: [i % 7, 100 + i] })).join('\n');

  it('de-quantises Mooncake ticks by default: a tick\'s requests spread over it, in order', () => {
    const w = mooncakeTraceWorkload(quantised(50));
    expect(w.params.dequantizeTickMs).toBe(3000);
    const arrivals = w.items.map((x) => x.arrivalMs);
    expect(new Set(arrivals).size).toBe(50);
    for (const [k, a] of arrivals.entries()) {
      expect(a).toBeGreaterThanOrEqual(Math.floor(k / 10) * 3000);
      expect(a).toBeLessThan(Math.floor(k / 10) * 3000 + 3000);
    }
    // Literal replay keeps the bursts.
    expect(new Set(mooncakeTraceWorkload(quantised(50), { dequantize: false }).items.map((x) => x.arrivalMs)).size).toBe(5);
    expect(detectTickMs([0, 40, 277, 471])).toBeUndefined();
  });

  it('parses the Azure CSV format and names the bad field', () => {
    const csv = 'TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:17:03.9799600,4808,10\n2023-11-16 18:17:04.0319600,3180,0\n';
    const w = azureTraceWorkload(csv);
    expect(w.items.map((x) => [Math.round(x.arrivalMs), x.promptLength, x.maxOutputTokens])).toEqual([[0, 4808, 10], [52, 3180, 1]]);
    expect(traceWorkload(csv).items).toHaveLength(2);
    expect(() => azureTraceWorkload('TIMESTAMP,ContextTokens,GeneratedTokens\nyesterday,1,1')).toThrow(/line 2\.TIMESTAMP/);
    expect(() => azureTraceWorkload('TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:17:03,-4,1')).toThrow(/line 2\.ContextTokens/);
    expect(() => azureTraceWorkload('a,b\n')).toThrow(/missing column TIMESTAMP/);
  });

  it('never crashes on arbitrary CSV rows: it parses them or names the line', () => {
    fc.assert(fc.property(fc.array(fc.string(), { maxLength: 5 }), (rows) => {
      try {
        azureTraceWorkload(`TIMESTAMP,ContextTokens,GeneratedTokens\n${rows.join('\n')}`);
      } catch (e) {
        expect(String(e)).toMatch(/trace line \d+/);
      }
    }));
  });
});
