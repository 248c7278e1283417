import { describe, expect, it } from 'vitest';
import { DECISION_TRACE_HEADER, DecisionLog, EndpointPicker, EndpointPool, ManualClock, SwitchyardError, parseRequest, recordDecisions, type Decision, type DecisionRecord, type RequestScheduler } from '@switchyard/core';
import { seededRandom } from '../clock/seeded-random.js';
import { metrics } from '../testing/index.js';

const chat = (id: string) =>
  parseRequest({ path: '/v1/chat/completions', headers: { 'x-request-id': id }, body: JSON.stringify({ model: 'llama', messages: [{ role: 'user', content: 'hello' }] }) });

function setup(): { clock: ManualClock; pool: EndpointPool; picker: EndpointPicker } {
  const clock = new ManualClock();
  const pool = new EndpointPool();
  for (let i = 0; i < 3; i++) {
    pool.add({ id: `e${i}`, address: `10.0.0.${i + 1}:8000` });
    pool.setMetrics(`e${i}`, metrics({ waitingQueueSize: i * 2, kvCacheUsagePercent: 0.2 * i, updatedAt: 0 }));
  }
  return { clock, pool, picker: new EndpointPicker({ pool, clock, random: seededRandom(1) }) };
}

describe('recordDecisions', () => {
  it('records every pick with its trace and exactly one outcome', async () => {
    const { clock, picker } = setup();
    const log = new DecisionLog({ clock });
    const ended: DecisionRecord[] = [];
    const scheduler = recordDecisions(picker, { log, pool: 'main', onEnd: (r) => ended.push(r) });
    const d = await scheduler.pick(chat('req-1'));
    expect(d.primary.id).toBe('e0');
    expect(d.targets).toEqual([d.primary, ...d.fallbacks]);
    const r = log.find('req-1');
    expect(r).toMatchObject({ pool: 'main', model: 'llama', targetModel: 'llama', endpoint: 'e0', outcome: 'pending', fairnessId: 'default-flow' });
    expect(r?.trace?.profiles[0]?.picked[0]).toBe('e0');
    expect(r?.trace?.profiles[0]?.scorers.length).toBeGreaterThan(0);
    expect(ended).toEqual([]);
    clock.advance(25);
    d.onUsage({ promptTokens: 5, completionTokens: 7 });
    d.complete({ kind: 'success' });
    d.complete({ kind: 'error', status: 500 });
    expect(r).toMatchObject({ outcome: 'success', totalMs: 25, usage: { promptTokens: 5, completionTokens: 7 } });
    expect(ended.map((e) => e.requestId)).toEqual(['req-1']);
    // The wrapped picker's accounting was released once.
    expect(picker.pool.get('e0')?.inFlightRequests).toBe(0);
  });

  it('records a rejected pick with its error code and rethrows', async () => {
    const log = new DecisionLog({ clock: new ManualClock() });
    const failing: RequestScheduler = { pick: () => Promise.reject(new SwitchyardError('REJECTED_NO_ENDPOINTS', 'none')) };
    await expect(recordDecisions(failing, { log }).pick(chat('req-2'))).rejects.toThrow('none');
    expect(log.find('req-2')).toMatchObject({ outcome: 'rejected', error: 'REJECTED_NO_ENDPOINTS', trace: undefined });
  });

  it('does not trace without a log, but still reports the end', async () => {
    const { picker } = setup();
    const ended: DecisionRecord[] = [];
    const d = await recordDecisions(picker, { onEnd: (r) => ended.push(r) }).pick(chat('req-3'));
    expect(d.trace).toBeUndefined();
    d.complete({ kind: 'error', status: 503 });
    expect(ended[0]).toMatchObject({ requestId: 'req-3', outcome: 'error', error: 'HTTP 503' });
  });

  it('adds the compact trace to the response headers when asked, and only then', async () => {
    const { picker } = setup();
    const d = await recordDecisions(picker, { traceHeader: true }).pick(chat('req-4'));
    expect(d.responseHeaders[DECISION_TRACE_HEADER]).toMatch(/^model=llama;priority=0;fairness=default-flow;profile=default;candidates=3;picked=e0;scores=e0:/);
    d.complete({ kind: 'success' });
    const plain = await recordDecisions(picker, { log: new DecisionLog({ clock: new ManualClock() }) }).pick(chat('req-5'));
    expect(plain.trace).toBeDefined();
    expect(plain.responseHeaders[DECISION_TRACE_HEADER]).toBeUndefined();
    plain.complete({ kind: 'success' });
  });

  it('passes response chunks on to the wrapped decision, and offers the hook only when it has one', async () => {
    const chunks: number[] = [];
    const inner = await setup().picker.pick(chat('req-6'));
    const plain: Decision = {
      request: inner.request,
      primary: inner.primary,
      fallbacks: inner.fallbacks,
      result: inner.result,
      headers: inner.headers,
      responseHeaders: inner.responseHeaders,
      body: inner.body,
      clientModel: inner.clientModel,
      trace: inner.trace,
      revoked: inner.revoked,
      onResponseStart: (info) => {
        inner.onResponseStart(info);
      },
      onUsage: (usage) => {
        inner.onUsage(usage);
      },
      complete: (outcome) => {
        inner.complete(outcome);
      },
    };
    const processing: number[] = [];
    const withChunks: RequestScheduler = { pick: () => Promise.resolve({ ...plain, onResponseChunk: (n: number) => {
      chunks.push(n);
    }, onResponseProcessing: (ms: number) => {
      processing.push(ms);
    } }) };
    const d = await recordDecisions(withChunks, { log: new DecisionLog({ clock: new ManualClock() }) }).pick(chat('req-6'));
    d.onResponseChunk?.(12);
    d.onResponseChunk?.(30);
    d.onResponseProcessing?.(1.5);
    expect(chunks).toEqual([12, 30]);
    expect(processing).toEqual([1.5]);
    const without: RequestScheduler = { pick: () => Promise.resolve(plain) };
    const bare = await recordDecisions(without, { traceHeader: true }).pick(chat('req-7'));
    expect([bare.onResponseChunk, bare.onResponseProcessing]).toEqual([undefined, undefined]);
    inner.complete({ kind: 'success' });
  });

  it('returns the scheduler itself when there is nothing to record', () => {
    const { picker } = setup();
    expect(recordDecisions(picker)).toBe(picker);
    expect(recordDecisions(picker, { pool: 'main' })).toBe(picker);
    expect(recordDecisions(picker, { traceHeader: true })).not.toBe(picker);
  });
});
