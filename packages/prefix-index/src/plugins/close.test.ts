import { beforeAll, describe, expect, it } from 'vitest';
import { createDefaultRegistry, EndpointPicker, EndpointPool, loadConfig } from '@switchyard/core';
import { createPrefixHasher, loadPrefixIndexPlugins, silentLogger, type PrecisePrefixProducer, type PrefixHasher, type ZmqModule, type ZmqSubscriberLike } from '@switchyard/prefix-index';

let hasher: PrefixHasher;
beforeAll(() => {
  hasher = createPrefixHasher();
});

/** A SUB socket that records what it was asked to do; its receive loop ends when it is closed. */
class FakeSubscriber implements ZmqSubscriberLike {
  linger = -1;
  closed = false;
  readonly addresses: string[] = [];
  readonly events = { on: (): void => undefined };
  #wake: (() => void) | undefined;

  connect(address: string): void {
    this.addresses.push(address);
  }
  subscribe(): void {
    // Topic filters are irrelevant here: nothing is ever published.
  }
  close(): void {
    this.closed = true;
    this.#wake?.();
  }
  [Symbol.asyncIterator](): AsyncIterator<Buffer[]> {
    // Like zeromq: receiving on a closed socket ends the loop with an error; nothing arrives before.
    return {
      next: async () => {
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
          if (this.closed) resolve();
        });
        throw new Error('socket closed');
      },
    };
  }
}

function fakeZeromq(): { module: ZmqModule; sockets: FakeSubscriber[] } {
  const sockets: FakeSubscriber[] = [];
  class Subscriber extends FakeSubscriber {
    constructor() {
      super();
      sockets.push(this);
    }
  }
  const Dealer = function (): never {
    throw new Error('no replay port is configured, so no DEALER socket may be created');
  };
  return { module: { Subscriber, Dealer } as unknown as ZmqModule, sockets };
}

const PRECISE = `apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: token-producer
  parameters:
    backend: custom
- type: precise-prefix-cache-producer
  parameters:
    port: 6000
- name: approximate
  type: prefix-cache-scorer
  parameters:
    blockSizeTokens: 64
- name: precise
  type: prefix-cache-scorer
  parameters:
    prefixMatchInfoProducerName: precise-prefix-cache-producer
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: approximate
  - pluginRef: precise
`;

describe('closing an EndpointPicker releases the prefix plugins', () => {
  it("closes the precise producer's ZMQ sockets and detaches every prefix plugin from the pool", async () => {
    const zmq = fakeZeromq();
    const pool = new EndpointPool();
    pool.add({ id: 'a', address: '10.0.0.1:8000' });
    pool.add({ id: 'b', address: '10.0.0.2:8000' });
    const baseline = pool.listenerCount('removed');
    const options = { hasher, zeromq: zmq.module, logger: silentLogger, tokenizer: { name: 'ids', tokenize: () => Promise.resolve([[1, 2, 3]]) } };
    const registry = createDefaultRegistry().registerAll(loadPrefixIndexPlugins(options));
    const config = loadConfig(PRECISE, { registry, pool });
    const producer = config.plugins.get('precise-prefix-cache-producer') as PrecisePrefixProducer;
    await producer.subscriber;
    expect(zmq.sockets.map((s) => s.addresses[0])).toEqual(['tcp://10.0.0.1:6000', 'tcp://10.0.0.2:6000']);
    expect(zmq.sockets.some((s) => s.closed)).toBe(false);
    expect(pool.listenerCount('removed')).toBeGreaterThan(baseline);

    const picker = new EndpointPicker({ pool, config });
    await picker.close();
    expect(zmq.sockets.every((s) => s.closed)).toBe(true);
    // The precise producer, its subscriber and the legacy scorer's own index all stopped following the pool.
    expect(pool.listenerCount('removed')).toBe(baseline);
    expect(pool.listenerCount('added')).toBe(0);
    // A new endpoint opens no socket any more.
    pool.add({ id: 'c', address: '10.0.0.3:8000' });
    expect(zmq.sockets).toHaveLength(2);
  });
});
