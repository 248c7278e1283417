import { describe, expect, it } from 'vitest';
import { ManualClock } from '@switchyard/core';
import {
  createPrefixIndexMetrics,
  encodeSeq,
  encodeVllmEventBatch,
  KvEventSubscriber,
  silentLogger,
  type KvEventBatch,
  type KvEventSink,
  type ZmqModule,
  type ZmqSubscriberLike,
} from '@switchyard/prefix-index';

/**
 * A SUB socket whose queued messages are read back to back, each read a settled promise: the way
 * a real socket behaves when its queue is full, and the way a flood starves the event loop.
 */
class QueuedSubscriber implements ZmqSubscriberLike {
  static last: QueuedSubscriber | undefined;
  linger = 0;
  readonly events = { on: (): void => undefined };
  readonly #queue: Buffer[][] = [];
  #wake: (() => void) | undefined;
  #closed = false;
  constructor() {
    QueuedSubscriber.last = this;
  }
  subscribe(): void {}
  connect(): void {}
  close(): void {
    this.#closed = true;
    this.#wake?.();
  }
  push(frames: Buffer[]): void {
    this.#queue.push(frames);
    this.#wake?.();
  }
  async *[Symbol.asyncIterator](): AsyncIterator<Buffer[]> {
    let head = 0;
    while (!this.#closed) {
      if (head < this.#queue.length) {
        yield this.#queue[head++] as Buffer[];
        continue;
      }
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }
}

const zeromq = { Subscriber: QueuedSubscriber, Dealer: QueuedSubscriber } as unknown as ZmqModule;

function payload(events: number): Buffer {
  const batch: KvEventBatch = { ts: 1, events: Array.from({ length: events }, () => ({ type: 'AllBlocksCleared' as const })) };
  return Buffer.from(encodeVllmEventBatch(batch, { encoding: 'array' }));
}

async function setup(budget: { eventsPerSlice?: number; maxEventsPerSecond?: number }, clock = new ManualClock()) {
  const ingested: number[] = [];
  const cleared: string[] = [];
  const sink: KvEventSink = {
    ingest: (_id, b) => {
      ingested.push(b.events.length);
    },
    clearEndpoint: (id) => {
      cleared.push(id);
    },
  };
  const metrics = createPrefixIndexMetrics({ logger: silentLogger });
  const sub = await KvEventSubscriber.create({ sink, metrics, clock, zeromq, budget });
  sub.subscribe('pod-a', { publisher: 'tcp://127.0.0.1:1' });
  const socket = QueuedSubscriber.last as QueuedSubscriber;
  const send = (seq: number, events: number): void => {
    socket.push([Buffer.from('kv@pod-a@m'), encodeSeq(seq), payload(events)]);
  };
  return { sub, metrics, ingested, cleared, send, clock };
}

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

describe('KvEventSubscriber work budget', () => {
  it('yields to the event loop during a flood, so other callbacks run before it is done', async () => {
    const { sub, ingested, send } = await setup({ eventsPerSlice: 1000, maxEventsPerSecond: 10_000_000 });
    for (let seq = 0; seq < 200; seq++) send(seq, 100);
    // A request-path callback queued behind the flood: it must not wait for all 20,000 events.
    const seenByProbe = await new Promise<number>((resolve) => setImmediate(() => {
      resolve(ingested.length);
    }));
    expect(seenByProbe).toBeGreaterThan(0);
    expect(seenByProbe).toBeLessThanOrEqual(20);
    while (ingested.length < 200) await settle();
    expect(ingested.length).toBe(200);
    await sub.close();
  });

  it('drops batches over the events-per-second budget, counts them and clears the endpoint', async () => {
    const { sub, metrics, ingested, cleared, send, clock } = await setup({ maxEventsPerSecond: 1000 });
    for (let seq = 0; seq < 30; seq++) send(seq, 100);
    while (ingested.length + cleared.length < 30) await settle();
    expect(ingested.length).toBe(10);
    expect(cleared).toHaveLength(20);
    const errors = await metrics.errors.get();
    expect(errors.values.find((v) => v.labels['cause'] === 'over-budget')?.value).toBe(20);
    const resets = await metrics.resets.get();
    expect(resets.values.find((v) => v.labels['reason'] === 'over-budget')?.value).toBe(20);
    // The bucket refills with time: half a second buys 500 events.
    clock.advance(500);
    for (let seq = 30; seq < 36; seq++) send(seq, 100);
    while (ingested.length + cleared.length < 36) await settle();
    expect(ingested.length).toBe(15);
    await sub.close();
  });

  it('rejects a bad budget naming the field', async () => {
    await expect(setup({ eventsPerSlice: 0 })).rejects.toThrow('budget.eventsPerSlice must be a positive integer, got 0');
  });
});
