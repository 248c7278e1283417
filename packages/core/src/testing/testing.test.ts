import { describe, expect, it } from 'vitest';
import { EventEmitter } from 'node:events';
import { ManualClock } from '../clock/manual-clock.js';
import { SwitchyardError } from '../errors/switchyard-error.js';
import { DESTINATION_HEADER } from '../headers/names.js';
import { FakeScheduler, inferenceRequest, metrics, poolOf, schedulingRequest, settle, tokensPrompt, waitFor, waitForEvent } from './index.js';

describe('request builders', () => {
  it('builds a chat request by default and a completions request for a token prompt', () => {
    expect(inferenceRequest()).toMatchObject({ id: 'req-1', model: 'm1', api: 'openai-chat-completions', path: '/v1/chat/completions', stream: false });
    const tokens = inferenceRequest({ prompt: tokensPrompt([1, 2, 3]), model: 'm' });
    expect(tokens).toMatchObject({ api: 'openai-completions', path: '/v1/completions', body: { model: 'm', prompt: { kind: 'tokens', tokenIds: [[1, 2, 3]] } } });
    expect(tokens.byteSize).toBe(tokens.rawBody.byteLength);
  });

  it('wraps a scheduling request the way the picker does', () => {
    const s = schedulingRequest({ priority: 3, request: { model: 'x' } });
    expect([s.id, s.targetModel, s.fairnessId, s.priority, s.receivedAt]).toEqual(['req-1', 'x', 'default-flow', 3, 0]);
  });
});

describe('pool builders', () => {
  it('numbers members or takes ids, with one set of metric defaults', () => {
    expect(poolOf(2).list().map((e) => [e.id, e.address])).toEqual([['e0', '10.0.0.1:8000'], ['e1', '10.0.0.2:8000']]);
    const named = poolOf(['a', 'b'], (i) => (i === 1 ? { waitingQueueSize: 4 } : undefined), () => ({ zone: 'z' }));
    expect(named.list().map((e) => [e.id, e.metrics?.waitingQueueSize, e.labels.zone])).toEqual([['a', undefined, 'z'], ['b', 4, 'z']]);
    expect(metrics()).toMatchObject({ cacheBlockSize: 16, cacheNumBlocks: 1000, updatedAt: 0 });
  });
});

describe('FakeScheduler', () => {
  it('records one decision per pick and flags lifecycles not completed exactly once', async () => {
    const s = new FakeScheduler(poolOf(3), { fallbacks: 1, rewrites: { alias: 'real' } });
    const d = await s.pick(inferenceRequest({ model: 'alias' }));
    expect([d.primary.id, d.fallbacks.map((e) => e.id), d.headers[DESTINATION_HEADER]]).toEqual(['e0', ['e1'], '10.0.0.1:8000,10.0.0.2:8000']);
    expect(JSON.parse(new TextDecoder().decode(d.body))).toMatchObject({ model: 'real' });
    expect(s.pool.get('e0')?.inFlightRequests).toBe(1);
    expect(s.badLifecycles()).toHaveLength(1);
    d.complete({ kind: 'success' });
    d.complete({ kind: 'success' });
    expect(s.pool.get('e0')?.inFlightRequests).toBe(0);
    expect(s.badLifecycles()).toHaveLength(1);
    expect((await s.pick(inferenceRequest())).primary.id).toBe('e1');
  });

  it('holds gated picks until release, and rejects a held pick whose signal aborts', async () => {
    const s = new FakeScheduler(poolOf(1), { gated: true });
    const held = s.pick(inferenceRequest());
    const abort = new AbortController();
    const cancelled = s.pick(inferenceRequest(), { signal: abort.signal });
    await waitFor(() => s.waiting === 2, { what: 'two held picks' });
    abort.abort();
    await expect(cancelled).rejects.toMatchObject({ code: 'REJECTED_CONTEXT_CANCELLED' });
    s.release();
    expect((await held).primary.id).toBe('e0');
    expect(s.waiting).toBe(0);
    await expect(s.pick(inferenceRequest())).resolves.toBeDefined();
  });

  it('narrows to the subset hint and honours the behaviour the test sets', async () => {
    const s = new FakeScheduler(poolOf(3), { order: 'least-loaded' });
    expect((await s.pick(inferenceRequest(), { subsetHint: ['10.0.0.3:8000'] })).primary.id).toBe('e2');
    s.behavior = () => new SwitchyardError('REJECTED_SATURATED', 'busy');
    await expect(s.pick(inferenceRequest())).rejects.toMatchObject({ code: 'REJECTED_SATURATED' });
  });
});

describe('waitFor', () => {
  it('returns the first truthy value once real work has happened', async () => {
    let ready: string | undefined;
    setTimeout(() => (ready = 'yes'), 5);
    await expect(waitFor(() => ready)).resolves.toBe('yes');
  });

  it('moves a manual clock instead of real time, and names what it waited for on timeout', async () => {
    const clock = new ManualClock();
    let fired = false;
    clock.setTimeout(() => (fired = true), 250);
    await waitFor(() => fired, { clock, stepMs: 50 });
    expect(clock.now()).toBe(250);
    await expect(waitFor(() => false, { clock, timeoutMs: 100, what: 'the impossible' })).rejects.toThrow('the impossible not met within 100 ms of virtual time');
  });

  it('stops when its signal aborts', async () => {
    const abort = new AbortController();
    const waiting = waitFor(() => false, { signal: abort.signal });
    abort.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
  });

  it('waits for an event and settles promise callbacks', async () => {
    const emitter = new EventEmitter();
    const next = waitForEvent(emitter, 'ready');
    emitter.emit('ready', 1, 2);
    await expect(next).resolves.toEqual([1, 2]);
    expect(emitter.listenerCount('ready')).toBe(0);
    let done = false;
    void Promise.resolve().then(() => (done = true));
    await settle();
    expect(done).toBe(true);
  });
});
