import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '@switchyard/core';
import { EngineModel, fillSyntheticTokens, renderMetrics, type EngineRequestResult } from '@switchyard/simulator';

type Op =
  | { kind: 'submit'; prefix: number; prefixLen: number; suffixLen: number; out: number; adapter: number }
  | { kind: 'repeat'; which: number; blocks: number; out: number }
  | { kind: 'abort'; which: number }
  | { kind: 'advance'; ms: number }
  | { kind: 'reset' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('submit' as const), prefix: fc.nat(3), prefixLen: fc.nat(400), suffixLen: fc.integer({ min: 1, max: 200 }), out: fc.integer({ min: 1, max: 60 }), adapter: fc.nat(3) }) },
  // A block-aligned prefix of an earlier prompt: its last block is recomputed although cached
  // (one token must be computed), so the engine holds two copies of that block.
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('repeat' as const), which: fc.nat(50), blocks: fc.integer({ min: 1, max: 30 }), out: fc.integer({ min: 1, max: 40 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('abort' as const), which: fc.nat(50) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 200 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'reset' as const }) },
);

function prompt(prefix: number, prefixLen: number, suffixSeed: number, suffixLen: number): Uint32Array {
  const out = new Uint32Array(prefixLen + suffixLen);
  fillSyntheticTokens(out, 0, prefix, 0, prefixLen);
  fillSyntheticTokens(out, prefixLen, 1000 + suffixSeed, 0, suffixLen);
  return out;
}

/**
 * Checks every accounting invariant against the engine's observable state. `mirror` counts, per
 * hash, stores minus removals seen in the KV events: what a consumer of the events believes.
 */
function checkInvariants(engine: EngineModel, mirror: Map<number, number>): void {
  const b = engine.blocks;
  const free = b.freeList();
  expect(free.length).toBe(b.numFree);
  expect(b.numUsed + b.numFree).toBe(b.numBlocks);
  expect(new Set(free).size).toBe(free.length);
  let refSum = 0;
  const cached = new Map<number, number>();
  let cachedBlocks = 0;
  const bad: string[] = [];
  for (let blk = 0; blk < b.numBlocks; blk++) {
    const r = b.refCount(blk);
    if (r < 0 || b.isFree(blk) !== (r === 0)) bad.push(`block ${blk}: ref ${r}, free ${String(b.isFree(blk))}`);
    refSum += r;
    const h = b.hashOf(blk);
    if (h !== 0) {
      if (!b.copiesOf(h).includes(blk)) bad.push(`block ${blk}: hash ${h} not registered (copies ${b.copiesOf(h).join(',')})`);
      cached.set(h, (cached.get(h) ?? 0) + 1);
      cachedBlocks++;
    }
  }
  expect(bad).toEqual([]);
  expect(cachedBlocks).toBe(b.numCached);
  const live = engine.liveRequests();
  let held = 0;
  for (const req of live) {
    held += req.blockTable.length;
    expect(req.blockTable.filter((blk) => b.isFree(blk))).toEqual([]);
    if (req.status === 'waiting') expect(req.blockTable).toHaveLength(0);
    expect(req.blockTable.length * 16).toBeGreaterThanOrEqual(Math.min(req.numComputed, req.promptLength + req.numOutput));
  }
  expect(refSum).toBe(held);
  // Replaying the KV events reproduces exactly the cached blocks, duplicates counted.
  const sorted = (m: Map<number, number>): [number, number][] => [...m].filter(([, n]) => n !== 0).sort((x, y) => x[0] - y[0]);
  expect(sorted(mirror)).toEqual(sorted(cached));
  const snap = engine.snapshot();
  expect(snap.running + snap.waiting).toBe(live.length);
  expect(snap.kvCacheUsage).toBeCloseTo(b.numUsed / b.numBlocks, 12);
  // The metrics page carries the gauges as of the last step's end (vLLM's scheduler stats).
  const pub = engine.metricsSnapshot();
  const text = renderMetrics(engine);
  expect(text).toContain(`vllm:num_requests_running{engine="0",model_name="sim-tiny"} ${pub.running}.0`);
  expect(text).toContain(`vllm:num_requests_waiting{engine="0",model_name="sim-tiny"} ${pub.waiting}.0`);
  expect(engine.stats.prefixCacheHits).toBeLessThanOrEqual(engine.stats.prefixCacheQueries);
}

describe('EngineModel invariants (property)', () => {
  it('keeps block accounting, refcounts, events and metrics consistent under any operation sequence', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 80 }), fc.integer({ min: 40, max: 160 }), (ops, numGpuBlocks) => {
        const clock = new ManualClock();
        const engine = new EngineModel({
          clock,
          profile: 'tiny',
          overrides: { numGpuBlocks, maxNumBatchedTokens: 256, maxNumSeqs: 6, maxModelLen: 4096, loraAdapters: ['l1', 'l2'], maxLoras: 1, loraLoadMs: 20 },
        });
        const mirror = new Map<number, number>();
        let orphans = 0;
        engine.on('kvEvents', (batch) => {
          for (const e of batch.events) {
            if (e.type === 'BlockStored') {
              // A consumer re-keys a stored block from its parent's key: the parent must still be held.
              if (e.parentBlockHash !== null) orphans += (mirror.get(e.parentBlockHash) ?? 0) > 0 ? 0 : 1;
              for (const h of e.blockHashes) mirror.set(h, (mirror.get(h) ?? 0) + 1);
            }
            else if (e.type === 'BlockRemoved') for (const h of e.blockHashes) mirror.set(h, (mirror.get(h) ?? 0) - 1);
            else mirror.clear();
          }
        });
        const submitted: { id: string; out: number }[] = [];
        const prompts: { tokens: Uint32Array; adapter: string | undefined }[] = [];
        const finished = new Map<string, EngineRequestResult>();
        const tokens = new Map<string, number>();
        let n = 0;
        for (const op of ops) {
          if (op.kind === 'submit' || op.kind === 'repeat') {
            let p: Uint32Array;
            let adapter: string | undefined;
            if (op.kind === 'submit') {
              p = prompt(op.prefix, op.prefixLen, n + 1, op.suffixLen);
              adapter = op.adapter === 1 ? 'l1' : op.adapter === 2 ? 'l2' : undefined;
            } else {
              const earlier = prompts[op.which % Math.max(1, prompts.length)];
              if (earlier === undefined || earlier.tokens.length < 16) continue;
              p = earlier.tokens.slice(0, 16 * Math.min(op.blocks, Math.floor(earlier.tokens.length / 16)));
              adapter = earlier.adapter;
            }
            const id = `r${n++}`;
            prompts.push({ tokens: p, adapter });
            if (Math.ceil((p.length + op.out) / 16) > numGpuBlocks) continue;
            engine.submit({ id, promptTokens: p, maxOutputTokens: op.out, adapter }, {
              onToken: (_t, i) => {
                expect(i).toBe(tokens.get(id) ?? 0);
                tokens.set(id, i + 1);
              },
              onFinish: (r) => {
                expect(finished.has(id)).toBe(false);
                finished.set(id, r);
              },
            });
            submitted.push({ id, out: op.out });
          } else if (op.kind === 'abort') {
            const target = submitted[op.which % Math.max(1, submitted.length)];
            if (target !== undefined) engine.abort(target.id);
          } else if (op.kind === 'advance') {
            clock.advance(op.ms);
          } else {
            engine.resetPrefixCache();
          }
          checkInvariants(engine, mirror);
          expect(orphans).toBe(0);
        }
        clock.advance(600_000);
        checkInvariants(engine, mirror);
        expect(engine.liveRequests()).toHaveLength(0);
        expect(engine.blocks.numUsed).toBe(0);
        expect(engine.metricsSnapshot()).toMatchObject({ running: 0, waiting: 0, usedBlocks: 0, kvCacheUsage: 0 });
        for (const s of submitted) {
          const r = finished.get(s.id);
          expect(r).toBeDefined();
          if (r?.finishReason === 'length') expect(r.outputTokens).toBe(s.out);
          expect(tokens.get(s.id) ?? 0).toBe(r?.outputTokens);
          if (r !== undefined) expect(r.cachedTokens % 16).toBe(0);
        }
      }),
      { numRuns: 150 },
    );
  });
});
