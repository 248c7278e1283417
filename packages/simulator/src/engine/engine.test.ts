import { describe, expect, it } from 'vitest';
import { ManualClock } from '@switchyard/core';
import { EngineModel, PROFILE_8B_H100, fillSyntheticTokens, renderMetrics, type EngineRequestResult, type SimKvEventBatch } from '@switchyard/simulator';

const synth = (seed: number, n: number, offset = 0): Uint32Array => {
  const out = new Uint32Array(n);
  fillSyntheticTokens(out, 0, seed, offset, n);
  return out;
};
const concat = (...parts: Uint32Array[]): Uint32Array => {
  const out = new Uint32Array(parts.reduce((a, p) => a + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

function run(engine: EngineModel, clock: ManualClock, id: string, prompt: Uint32Array, out = 4, adapter?: string): Promise<EngineRequestResult> {
  return new Promise((resolve) => {
    engine.submit({ id, promptTokens: prompt, maxOutputTokens: out, adapter }, { onFinish: resolve });
    clock.advance(60_000);
  });
}

describe('EngineModel timing', () => {
  it('prices a cold prefill and its decode steps with the cost model', async () => {
    const clock = new ManualClock();
    const engine = new EngineModel({ clock, profile: '8b-h100', overrides: { cost: { jitter: 0 } } });
    const c = PROFILE_8B_H100.cost;
    const r = await run(engine, clock, 'a', synth(1, 8000), 4);
    const prefill = c.stepOverheadMs + c.perSeqMs + Math.max(c.weightReadMs, c.perTokenMs * 8000) + c.attentionPairNs * 1e-6 * 8000 * 8000;
    expect(r.firstTokenAt).toBeCloseTo(prefill, 6);
    expect(prefill).toBeGreaterThan(200);
    expect(prefill).toBeLessThan(230); // calibration check: TTFT(8K) ≈ 0.22 s
    const decode = (ctx: number): number => c.stepOverheadMs + c.perSeqMs + c.weightReadMs + c.decodeContextNs * 1e-6 * ctx;
    expect(r.finishedAt).toBeCloseTo(prefill + decode(8000) + decode(8001) + decode(8002), 6);
    expect(r.outputTokens).toBe(4);
    expect(r.cachedTokens).toBe(0);
  });

  it('splits a long prompt into chunks of max_num_batched_tokens', () => {
    const clock = new ManualClock();
    const engine = new EngineModel({ clock, profile: '8b-h100', overrides: { cost: { jitter: 0 } } });
    engine.submit({ id: 'long', promptTokens: synth(2, 20_000), maxOutputTokens: 1 });
    clock.advance(10_000);
    // 8192 + 8192 + 3616 tokens: three prefill steps, the last one samples the only token.
    expect(engine.stats.steps).toBe(3);
    expect(engine.stats.generationTokens).toBe(1);
  });
});

describe('EngineModel prefix cache', () => {
  it('reuses the longest cached prefix, block-aligned and never the last token', async () => {
    const clock = new ManualClock();
    const engine = new EngineModel({ clock, profile: 'tiny' });
    const sys = synth(3, 1000);
    const a = await run(engine, clock, 'a', concat(sys, synth(4, 100)));
    const b = await run(engine, clock, 'b', concat(sys, synth(5, 100)));
    const same = await run(engine, clock, 'c', concat(sys, synth(5, 100)));
    expect(a.cachedTokens).toBe(0);
    expect(b.cachedTokens).toBe(Math.floor(1000 / 16) * 16);
    // An identical prompt hits every full block except the one holding the last token.
    expect(same.cachedTokens).toBe(Math.floor((1100 - 1) / 16) * 16);
    expect(engine.stats.prefixCacheHits).toBe(b.cachedTokens + same.cachedTokens);
    expect(engine.stats.prefixCacheQueries).toBe(3300);
  });

  it('keeps different adapters and cache salts apart', async () => {
    const clock = new ManualClock();
    const engine = new EngineModel({ clock, profile: 'tiny', overrides: { loraAdapters: ['x'], loraLoadMs: 5 } });
    const p = synth(6, 500);
    await run(engine, clock, 'base', p);
    expect((await run(engine, clock, 'lora', p, 4, 'x')).cachedTokens).toBe(0);
    const salted = await new Promise<EngineRequestResult>((resolve) => {
      engine.submit({ id: 's', promptTokens: p, maxOutputTokens: 2, cacheSalt: 'tenant-1' }, { onFinish: resolve });
      clock.advance(10_000);
    });
    expect(salted.cachedTokens).toBe(0);
    expect((await run(engine, clock, 'base2', p)).cachedTokens).toBe(496);
  });

  it('evicts least recently freed blocks first and reports them as BlockRemoved', async () => {
    const clock = new ManualClock();
    const engine = new EngineModel({ clock, profile: 'tiny', overrides: { numGpuBlocks: 100 } });
    const batches: SimKvEventBatch[] = [];
    engine.on('kvEvents', (b) => batches.push(b));
    const first = synth(7, 800); // 50 blocks
    await run(engine, clock, 'first', first, 1);
    await run(engine, clock, 'second', synth(8, 800), 1);
    expect(engine.blocks.evictions).toBe(0);
    await run(engine, clock, 'third', synth(9, 800), 1); // needs 50 more: evicts "first"'s blocks
    expect(engine.blocks.evictions).toBeGreaterThan(0);
    const removed = batches.flatMap((b) => b.events).filter((e) => e.type === 'BlockRemoved').flatMap((e) => e.blockHashes);
    const storedFirst = batches.flatMap((b) => b.events).find((e) => e.type === 'BlockStored');
    expect(storedFirst?.type === 'BlockStored' && storedFirst.blockHashes.every((h) => removed.includes(h))).toBe(true);
    // The second prompt (freed later) is still cached; the first is gone.
    expect((await run(engine, clock, 'second-again', synth(8, 800), 1)).cachedTokens).toBe(784);
    expect((await run(engine, clock, 'first-again', first, 1)).cachedTokens).toBe(0);
  });

  it('serves a prefix from the CPU tier after the GPU evicted it', async () => {
    const clock = new ManualClock();
    const engine = new EngineModel({ clock, profile: 'tiny', overrides: { numGpuBlocks: 100, numCpuBlocks: 400 } });
    const first = synth(10, 800);
    await run(engine, clock, 'first', first, 1);
    await run(engine, clock, 'second', synth(11, 800), 1);
    await run(engine, clock, 'third', synth(12, 800), 1);
    expect(engine.blocks.numCpuCached).toBeGreaterThan(0);
    expect((await run(engine, clock, 'first-again', first, 1)).cachedTokens).toBe(784);
  });
});

describe('EngineModel preemption and limits', () => {
  it('preempts by recompute when blocks run out and still finishes everything', () => {
    const clock = new ManualClock();
    const engine = new EngineModel({ clock, profile: 'tiny', overrides: { numGpuBlocks: 64 } });
    const results: EngineRequestResult[] = [];
    for (let i = 0; i < 6; i++) {
      engine.submit({ id: `r${i}`, promptTokens: synth(20 + i, 100), maxOutputTokens: 200 }, { onFinish: (r) => results.push(r) });
    }
    clock.advance(120_000);
    expect(results).toHaveLength(6);
    expect(results.every((r) => r.outputTokens === 200 && r.finishReason === 'length')).toBe(true);
    expect(engine.stats.preemptions).toBeGreaterThan(0);
    expect(results.reduce((a, r) => a + r.preemptions, 0)).toBe(engine.stats.preemptions);
    expect(engine.blocks.numUsed).toBe(0);
  });

  it('respects max_num_seqs', () => {
    const clock = new ManualClock();
    const engine = new EngineModel({ clock, profile: 'tiny', overrides: { maxNumSeqs: 2 } });
    for (let i = 0; i < 5; i++) engine.submit({ id: `r${i}`, promptTokens: synth(30 + i, 50), maxOutputTokens: 50 });
    clock.advance(50);
    const snap = engine.snapshot();
    expect(snap.running).toBe(2);
    expect(snap.waiting).toBe(3);
  });

  it('publishes its gauges per step: an arrival during a step is not waiting until a pass leaves it waiting', () => {
    const clock = new ManualClock();
    const engine = new EngineModel({ clock, profile: 'tiny', overrides: { maxNumSeqs: 2, cost: { jitter: 0 } } });
    engine.submit({ id: 'a', promptTokens: synth(40, 1500), maxOutputTokens: 50 });
    clock.advance(1);
    // 'a' is in its prefill step; 'b' arrives meanwhile: the scheduler has not seen it yet.
    engine.submit({ id: 'b', promptTokens: synth(41, 100), maxOutputTokens: 50 });
    expect(engine.snapshot().waiting).toBe(1);
    expect(engine.metricsSnapshot().waiting).toBe(0);
    const text = renderMetrics(engine);
    expect(text).toContain('vllm:num_requests_waiting{engine="0",model_name="sim-tiny"} 0.0');
    // The next step admits 'b'; a third request beyond max_num_seqs is left waiting by a pass.
    engine.submit({ id: 'c', promptTokens: synth(42, 100), maxOutputTokens: 50 });
    clock.advance(200);
    expect(engine.snapshot()).toMatchObject({ running: 2, waiting: 1 });
    expect(engine.metricsSnapshot()).toMatchObject({ running: 2, waiting: 1 });
    expect(engine.metricsSnapshot().kvCacheUsage).toBeCloseTo(engine.snapshot().kvCacheUsage, 12);
    engine.abort('a');
    engine.abort('b');
    engine.abort('c');
    // Aborts are seen when the step in flight ends.
    clock.advance(100);
    expect(engine.metricsSnapshot()).toMatchObject({ running: 0, waiting: 0, usedBlocks: 0 });
  });

  it('rejects requests that can never fit, naming the field', () => {
    const engine = new EngineModel({ clock: new ManualClock(), profile: 'tiny' });
    expect(() => engine.submit({ id: 'x', promptTokens: synth(1, 40_000), maxOutputTokens: 1 })).toThrow(/max_model_len/);
    expect(() => engine.submit({ id: 'y', promptTokens: [], maxOutputTokens: 1 })).toThrow(/prompt/);
    expect(() => engine.submit({ id: 'z', promptTokens: [1], maxOutputTokens: 0 })).toThrow(/max_tokens/);
  });

  it('frees an aborted request at once and reports it', () => {
    const clock = new ManualClock();
    const engine = new EngineModel({ clock, profile: 'tiny' });
    let result: EngineRequestResult | undefined;
    engine.submit({ id: 'a', promptTokens: synth(40, 3000), maxOutputTokens: 100 }, { onFinish: (r) => { result = r; } });
    clock.advance(30);
    expect(engine.blocks.numUsed).toBeGreaterThan(0);
    expect(engine.abort('a')).toBe(true);
    expect(engine.abort('a')).toBe(false);
    expect(engine.blocks.numUsed).toBe(0);
    expect(result?.finishReason).toBe('abort');
    expect(engine.stats.finishedAbort).toBe(1);
  });
});

describe('EngineModel LoRA slots', () => {
  it('loads adapters into max_loras slots, evicting idle ones', () => {
    const clock = new ManualClock();
    const engine = new EngineModel({ clock, profile: 'tiny', overrides: { loraAdapters: ['a', 'b'], maxLoras: 1, loraLoadMs: 100 } });
    const done: string[] = [];
    engine.submit({ id: 'ra', promptTokens: synth(50, 64), maxOutputTokens: 20, adapter: 'a' }, { onFinish: (r) => done.push(r.id) });
    engine.submit({ id: 'rb', promptTokens: synth(51, 64), maxOutputTokens: 20, adapter: 'b' }, { onFinish: (r) => done.push(r.id) });
    clock.advance(50);
    expect(engine.snapshot().waitingAdapters).toEqual(['a', 'b']);
    expect(engine.snapshot().running).toBe(0);
    clock.advance(60); // a is loaded at t=100
    expect(engine.snapshot().runningAdapters).toEqual(['a']);
    expect(engine.snapshot().waitingAdapters).toEqual(['b']);
    clock.advance(10_000);
    expect(done).toEqual(['ra', 'rb']);
    expect(engine.loadedAdapters()).toEqual(['b']);
  });
});

describe('EngineModel determinism', () => {
  const trace = (seed: number): string => {
    const clock = new ManualClock();
    const engine = new EngineModel({ clock, profile: 'tiny', overrides: { seed } });
    const out: string[] = [];
    for (let i = 0; i < 20; i++) {
      clock.setTimeout(() => {
        engine.submit({ id: `r${i}`, promptTokens: synth(i % 3, 300 + 37 * i), maxOutputTokens: 10 + i }, {
          onFinish: (r) => out.push(`${r.id}:${r.firstTokenAt ?? -1}:${r.finishedAt}:${r.cachedTokens}`),
        });
      }, i * 13);
    }
    clock.advance(60_000);
    return out.join('|');
  };

  it('repeats exactly for a seed and differs across seeds', () => {
    expect(trace(1)).toBe(trace(1));
    expect(trace(1)).not.toBe(trace(2));
  });
});
