import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '@switchyard/core';
import { EngineModel, fillSyntheticTokens, renderMetrics, type EngineRequestResult } from '@switchyard/simulator';

type Op =
  | { kind: 'submit'; prefix: number; prefixLen: number; suffixLen: number; out: number; adapter: number }
  | { kind: 'abort'; which: number }
  | { kind: 'advance'; ms: number }
  | { kind: 'reset' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('submit' as const), prefix: fc.nat(3), prefixLen: fc.nat(400), suffixLen: fc.integer({ min: 1, max: 200 }), out: fc.integer({ min: 1, max: 60 }), adapter: fc.nat(3) }) },
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

/** Checks every accounting invariant against the engine's observable state. */
function checkInvariants(engine: EngineModel, mirror: Set<number>): void {
  const b = engine.blocks;
  const free = b.freeList();
  expect(free.length).toBe(b.numFree);
  expect(b.numUsed + b.numFree).toBe(b.numBlocks);
  expect(new Set(free).size).toBe(free.length);
  let refSum = 0;
  const cached = new Set<number>();
  const bad: string[] = [];
  for (let blk = 0; blk < b.numBlocks; blk++) {
    const r = b.refCount(blk);
    if (r < 0 || b.isFree(blk) !== (r === 0)) bad.push(`block ${blk}: ref ${r}, free ${String(b.isFree(blk))}`);
    refSum += r;
    const h = b.hashOf(blk);
    if (h !== 0) {
      if (b.lookup(h) !== blk) bad.push(`block ${blk}: hash ${h} maps to ${String(b.lookup(h))}`);
      cached.add(h);
    }
  }
  expect(bad).toEqual([]);
  expect(cached.size).toBe(b.numCached);
  const live = engine.liveRequests();
  let held = 0;
  for (const req of live) {
    held += req.blockTable.length;
    expect(req.blockTable.filter((blk) => b.isFree(blk))).toEqual([]);
    if (req.status === 'waiting') expect(req.blockTable).toHaveLength(0);
    expect(req.blockTable.length * 16).toBeGreaterThanOrEqual(Math.min(req.numComputed, req.promptLength + req.numOutput));
  }
  expect(refSum).toBe(held);
  // Replaying the KV events reproduces exactly the set of cached hashes.
  expect([...mirror].sort()).toEqual([...cached].sort());
  const snap = engine.snapshot();
  expect(snap.running + snap.waiting).toBe(live.length);
  expect(snap.kvCacheUsage).toBeCloseTo(b.numUsed / b.numBlocks, 12);
  const text = renderMetrics(engine);
  expect(text).toContain(`vllm:num_requests_running{engine="0",model_name="sim-tiny"} ${snap.running}.0`);
  expect(text).toContain(`vllm:num_requests_waiting{engine="0",model_name="sim-tiny"} ${snap.waiting}.0`);
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
        const mirror = new Set<number>();
        engine.on('kvEvents', (batch) => {
          for (const e of batch.events) {
            if (e.type === 'BlockStored') for (const h of e.blockHashes) mirror.add(h);
            else if (e.type === 'BlockRemoved') for (const h of e.blockHashes) mirror.delete(h);
            else mirror.clear();
          }
        });
        const submitted: { id: string; out: number }[] = [];
        const finished = new Map<string, EngineRequestResult>();
        const tokens = new Map<string, number>();
        let n = 0;
        for (const op of ops) {
          if (op.kind === 'submit') {
            const id = `r${n++}`;
            const p = prompt(op.prefix, op.prefixLen, n, op.suffixLen);
            if (Math.ceil((p.length + op.out) / 16) > numGpuBlocks) continue;
            const adapter = op.adapter === 1 ? 'l1' : op.adapter === 2 ? 'l2' : undefined;
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
        }
        clock.advance(600_000);
        checkInvariants(engine, mirror);
        expect(engine.liveRequests()).toHaveLength(0);
        expect(engine.blocks.numUsed).toBe(0);
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
