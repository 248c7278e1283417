import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EndpointPool } from '@switchyard/core';
import {
  createPrefixHasher,
  createPrefixIndexMetrics,
  encodeVllmEventBatch,
  KvEventSubscriber,
  PreciseKvIndex,
  type KvEvent,
  silentLogger,
  type PrefixHasher,
} from '@switchyard/prefix-index';
import { FakeEngine, seq } from '../test-support/fake-engine.js';
import { TestPublisher } from './test-publisher.js';

let hasher: PrefixHasher;
const publishers: TestPublisher[] = [];
const subscribers: KvEventSubscriber[] = [];

beforeAll(() => {
  hasher = createPrefixHasher();
});
afterEach(async () => {
  for (const s of subscribers.splice(0)) await s.close();
  for (const p of publishers.splice(0)) p.close();
});
afterAll(async () => {
  for (const s of subscribers.splice(0)) await s.close();
  for (const p of publishers.splice(0)) p.close();
});

function waitApplied(sub: KvEventSubscriber, id: string, seqNo: number): Promise<void> {
  return new Promise((resolve) => {
    const on = (eid: string, s: number): void => {
      if (eid === id && s >= seqNo) {
        sub.off('applied', on);
        resolve();
      }
    };
    sub.on('applied', on);
  });
}

function waitReset(sub: KvEventSubscriber, id: string): Promise<string> {
  return new Promise((resolve) => {
    sub.once('reset', (eid, reason) => {
      if (eid === id) resolve(reason);
    });
  });
}

async function setup(withReplay = true, logged: string[] = []) {
  const pub = await new TestPublisher().start();
  publishers.push(pub);
  const metrics = createPrefixIndexMetrics({ logger: { warn: (_m, d) => logged.push(String(d?.['cause'])), info: () => undefined } });
  const index = new PreciseKvIndex({ hasher, blockSizeTokens: 4, observer: metrics.observer });
  const sub = await KvEventSubscriber.create({ sink: index, metrics });
  subscribers.push(sub);
  sub.subscribe('pod-a', { publisher: pub.pubAddress, replay: withReplay ? pub.replayAddress : undefined });
  await pub.subscribed();
  return { pub, index, sub, metrics };
}

const tokens = seq(64);
const engine = new FakeEngine(4);
const storeBlocks = (from: number, to: number): KvEvent => engine.stored(tokens, from, to);
const payload = (events: KvEvent[], encoding: 'map' | 'array') => encodeVllmEventBatch({ ts: 1, events, dataParallelRank: 0 }, { encoding });
const cached = (index: PreciseKvIndex, model = 'test-model') => index.match(index.keysFor([tokens], model)).byEndpoint.get('pod-a')?.cachedBlocks ?? 0;
const metricValue = async (metrics: ReturnType<typeof createPrefixIndexMetrics>, name: string, labels: Record<string, string> = {}) => {
  const m = await metrics.registry.getSingleMetric(name)!.get();
  return m.values.filter((v) => Object.entries(labels).every(([k, val]) => v.labels[k] === val)).reduce((a, v) => a + v.value, 0);
};

describe('KvEventSubscriber over a real ZMQ publisher on loopback', () => {
  for (const encoding of ['map', 'array'] as const) {
    it(`applies ${encoding}-encoded batches in sequence, rooted at the topic's model`, async () => {
      const { pub, index, sub, metrics } = await setup();
      const done = waitApplied(sub, 'pod-a', 2);
      await pub.send(0, payload([storeBlocks(0, 2)], encoding));
      await pub.send(1, payload([storeBlocks(2, 4)], encoding));
      await pub.send(2, payload([storeBlocks(4, 6)], encoding));
      await done;
      expect(cached(index)).toBe(6);
      expect(await metricValue(metrics, 'switchyard_kv_events_total', { type: 'BlockStored' })).toBe(3);
      expect(sub.status()[0]).toMatchObject({ endpointId: 'pod-a', lastSeq: 2 });
    });
  }

  it('heals a gap by asking the replay socket for the missing batches', async () => {
    const { pub, index, sub, metrics } = await setup();
    const first = waitApplied(sub, 'pod-a', 0);
    await pub.send(0, payload([storeBlocks(0, 2)], 'map'));
    await first;
    const done = waitApplied(sub, 'pod-a', 3);
    await pub.send(1, payload([storeBlocks(2, 4)], 'map'), { drop: true });
    await pub.send(2, payload([storeBlocks(4, 6)], 'array'), { drop: true });
    await pub.send(3, payload([storeBlocks(6, 8)], 'map'));
    await done;
    expect(pub.replayRequests).toEqual([1]);
    expect(cached(index)).toBe(8);
    expect(await metricValue(metrics, 'switchyard_kv_event_gaps_total')).toBe(1);
    expect(await metricValue(metrics, 'switchyard_kv_event_replays_total', { outcome: 'success' })).toBe(1);
  });

  it('replays the buffered history on a mid-stream join', async () => {
    const { pub, index, sub } = await setup();
    const done = waitApplied(sub, 'pod-a', 3);
    await pub.send(0, payload([storeBlocks(0, 1)], 'map'), { drop: true });
    await pub.send(1, payload([storeBlocks(1, 2)], 'map'), { drop: true });
    await pub.send(2, payload([storeBlocks(2, 3)], 'map'), { drop: true });
    await pub.send(3, payload([storeBlocks(3, 4)], 'map'));
    await done;
    expect(pub.replayRequests).toEqual([0]);
    expect(cached(index)).toBe(4);
  });

  it('applies what it has when the replay socket does not answer, then cools down', async () => {
    const pub = await new TestPublisher().start();
    publishers.push(pub);
    const metrics = createPrefixIndexMetrics({ logger: silentLogger });
    const index = new PreciseKvIndex({ hasher, blockSizeTokens: 4, observer: metrics.observer });
    const sub = await KvEventSubscriber.create({ sink: index, metrics, replayTimeoutMs: 200 });
    subscribers.push(sub);
    // Nothing listens on port 9 of loopback.
    sub.subscribe('pod-a', { publisher: pub.pubAddress, replay: 'tcp://127.0.0.1:9' });
    await pub.subscribed();
    const done = waitApplied(sub, 'pod-a', 3);
    await pub.send(0, payload([storeBlocks(0, 1)], 'map'));
    await pub.send(2, payload([storeBlocks(2, 3)], 'map'));
    await pub.send(3, payload([storeBlocks(3, 4)], 'map'));
    await done;
    expect(await metricValue(metrics, 'switchyard_kv_event_replays_total', { outcome: 'failure' })).toBe(1);
    // Block 1 is missing, so blocks 2 and 3 cannot be chained: skipped, never guessed.
    expect(cached(index)).toBe(1);
    expect(await metricValue(metrics, 'switchyard_kv_event_errors_total', { cause: 'unknown-parent' })).toBe(2);
    expect(await metricValue(metrics, 'switchyard_kv_event_errors_total', { cause: 'replay-timeout' })).toBe(1);
  });

  it('treats a sequence reset as "cache unknown": clears the endpoint, then applies the new stream', async () => {
    const { pub, index, sub, metrics } = await setup();
    const first = waitApplied(sub, 'pod-a', 1);
    await pub.send(0, payload([storeBlocks(0, 4)], 'map'));
    await pub.send(1, payload([storeBlocks(4, 8)], 'map'));
    await first;
    expect(cached(index)).toBe(8);
    const reset = waitReset(sub, 'pod-a');
    const after = new Promise<void>((resolve) => {
      sub.on('applied', (id, s) => {
        if (id === 'pod-a' && s === 0) resolve();
      });
    });
    // The engine restarted: its counter starts at 0 again and it knows only one block.
    await pub.send(0, payload([storeBlocks(0, 1)], 'map'), { buffer: false });
    expect(await reset).toBe('sequence-reset');
    await after;
    expect(cached(index)).toBe(1);
    expect(await metricValue(metrics, 'switchyard_kv_event_resets_total', { reason: 'sequence-reset' })).toBe(1);
  });

  it('clears the endpoint when the publisher goes away (reconnect = cache unknown)', async () => {
    const { pub, index, sub, metrics } = await setup();
    const first = waitApplied(sub, 'pod-a', 0);
    await pub.send(0, payload([storeBlocks(0, 2)], 'map'));
    await first;
    expect(cached(index)).toBe(2);
    const reset = waitReset(sub, 'pod-a');
    pub.close();
    expect(await reset).toBe('disconnect');
    expect(cached(index)).toBe(0);
    expect(sub.status()[0]).toMatchObject({ connected: false, lastSeq: undefined });
    expect(await metricValue(metrics, 'switchyard_kv_event_resets_total', { reason: 'disconnect' })).toBe(1);
  });

  it('counts malformed frames and payloads without crashing, logs each cause once, and keeps going', async () => {
    const logged: string[] = [];
    const { pub, index, sub, metrics } = await setup(false, logged);
    const done = waitApplied(sub, 'pod-a', 3);
    await pub.sendRaw(['kv@pod-a@test-model', 'only-two-frames']);
    await pub.sendRaw(['kv@pod-a@test-model', Buffer.alloc(3), Buffer.alloc(1)]);
    await pub.send(0, payload([storeBlocks(0, 2)], 'map'));
    await pub.send(1, Buffer.from([0x93, 0xcb, 0x3f]));
    await pub.send(2, payload([storeBlocks(0, 2)], 'map').subarray(0, 20));
    await pub.send(3, payload([storeBlocks(2, 3), { type: 'BlockRemoved', blockHashes: [123456], medium: 'gpu' }], 'array'));
    await done;
    expect(cached(index)).toBe(3);
    expect(await metricValue(metrics, 'switchyard_kv_event_errors_total', { cause: 'bad-frame' })).toBe(2);
    expect(await metricValue(metrics, 'switchyard_kv_event_errors_total', { cause: 'malformed-msgpack' })).toBe(2);
    expect(logged.sort()).toEqual(['bad-frame', 'malformed-msgpack', 'unknown-block']);
    expect(await metricValue(metrics, 'switchyard_kv_event_errors_total', { cause: 'unknown-block' })).toBe(1);
  });

  it('follows the pool: subscribes added endpoints and drops removed ones', async () => {
    const pub = await new TestPublisher('kv@10.0.0.9@m').start();
    publishers.push(pub);
    const index = new PreciseKvIndex({ hasher, blockSizeTokens: 4 });
    const pool = new EndpointPool();
    const port = Number(pub.pubAddress.split(':').pop());
    const sub = await KvEventSubscriber.create({ sink: index, pool, port });
    subscribers.push(sub);
    pool.add({ id: 'ns/pod-rank-0', address: '127.0.0.1:8000' });
    expect(sub.status().map((s) => s.address.publisher)).toEqual([`tcp://127.0.0.1:${port}`]);
    await pub.subscribed();
    const done = waitApplied(sub, 'ns/pod-rank-0', 0);
    await pub.send(0, payload([storeBlocks(0, 2)], 'map'));
    await done;
    expect(index.match(index.keysFor([tokens], 'm')).byEndpoint.get('ns/pod-rank-0')?.cachedBlocks).toBe(2);
    pool.remove('ns/pod-rank-0');
    expect(sub.status()).toEqual([]);
  });
});
