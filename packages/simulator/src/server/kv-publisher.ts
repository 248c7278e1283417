import type * as Zmq from 'zeromq';
import { SwitchyardError } from '@switchyard/core';
import type { EngineModel } from '../engine/engine.js';
import type { SimKvEventBatch } from '../engine/kv-events.js';
import { encodeKvEventBatch, type KvEventEncoding } from '../engine/kv-event-encoding.js';

/**
 * Options of {@link KvEventPublisher}.
 * @public
 * @category Server
 */
export interface KvEventPublisherOptions {
  /** PUB endpoint, e.g. `tcp://127.0.0.1:5557` (port `*` picks a free one). Binds, like vLLM with a `*`/host endpoint. */
  readonly endpoint: string;
  /** ROUTER endpoint answering replay requests, e.g. `tcp://127.0.0.1:5558`; omitted = no replay. */
  readonly replayEndpoint?: string;
  /** Topic frame, llm-d style `kv@<pod>@<model>`. */
  readonly topic: string;
  /** Event encoding (default `map`). */
  readonly encoding?: KvEventEncoding;
  /** Batches kept for replay (vLLM `buffer_steps`, default 10000). */
  readonly bufferSteps?: number;
}

/** Sequence number of the replay end marker: -1 as a signed 64-bit integer. */
const END_SEQ = Buffer.alloc(8, 0xff);

const seqBytes = (seq: number): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(seq));
  return b;
};

/**
 * Publishes an engine's KV events over ZeroMQ exactly like vLLM's `ZmqEventPublisher`: a PUB
 * socket sending `[topic, seq (8-byte big-endian, from 0), msgpack batch]` per engine step, and a
 * ROUTER replay socket: a client sends the first sequence number it wants (8 bytes big-endian, after
 * an empty delimiter frame), and gets `[seq, payload]` for every buffered batch from there, then
 * `[ff×8, empty]`. `zeromq` is an optional peer dependency, loaded on {@link KvEventPublisher.start}.
 * @public
 * @category Server
 */
export class KvEventPublisher {
  readonly #engine: EngineModel;
  readonly #options: KvEventPublisherOptions;
  readonly #buffer: { seq: number; payload: Uint8Array }[] = [];
  readonly #capacity: number;
  #bufferHead = 0;
  #seq = 0;
  #pub: Zmq.Publisher | undefined;
  #router: Zmq.Router | undefined;
  #chain: Promise<unknown> = Promise.resolve();
  readonly #listener = (batch: SimKvEventBatch): void => { this.#publish(batch); };
  /** Actual PUB endpoint after binding. */
  endpoint = '';
  /** Actual replay endpoint after binding ('' without replay). */
  replayEndpoint = '';

  constructor(engine: EngineModel, options: KvEventPublisherOptions) {
    this.#engine = engine;
    this.#options = options;
    this.#capacity = options.bufferSteps ?? 10_000;
  }

  /** Batches published so far (the next sequence number). */
  get published(): number {
    return this.#seq;
  }

  /**
   * Binds the sockets and starts publishing.
   * @throws SwitchyardError `CONFIG_INVALID` when `zeromq` is not installed
   */
  async start(): Promise<void> {
    let zmq: typeof Zmq;
    try {
      zmq = await import('zeromq');
    } catch (cause) {
      throw new SwitchyardError('CONFIG_INVALID', 'kvEvents: the optional peer dependency "zeromq" is not installed', { cause });
    }
    const pub = new zmq.Publisher({ linger: 0, sendHighWaterMark: 100_000 });
    await pub.bind(this.#options.endpoint);
    this.#pub = pub;
    this.endpoint = pub.lastEndpoint ?? this.#options.endpoint;
    if (this.#options.replayEndpoint !== undefined) {
      const router = new zmq.Router({ linger: 0 });
      await router.bind(this.#options.replayEndpoint);
      this.#router = router;
      this.replayEndpoint = router.lastEndpoint ?? this.#options.replayEndpoint;
      void this.#serveReplay(router);
    }
    this.#engine.on('kvEvents', this.#listener);
  }

  /** Stops publishing and closes the sockets. */
  async close(): Promise<void> {
    this.#engine.off('kvEvents', this.#listener);
    await this.#chain.catch(() => undefined);
    this.#pub?.close();
    this.#router?.close();
    this.#pub = undefined;
    this.#router = undefined;
  }

  #publish(batch: SimKvEventBatch): void {
    const payload = encodeKvEventBatch(batch, this.#options.encoding ?? 'map');
    const seq = this.#seq++;
    if (this.#buffer.length < this.#capacity) this.#buffer.push({ seq, payload });
    else {
      this.#buffer[this.#bufferHead] = { seq, payload };
      this.#bufferHead = (this.#bufferHead + 1) % this.#capacity;
    }
    const pub = this.#pub;
    if (pub === undefined) return;
    // zeromq allows one send in flight per socket; PUB never blocks (it drops at the HWM), so the
    // chain stays short.
    this.#chain = this.#chain.then(() => pub.send([this.#options.topic, seqBytes(seq), payload])).catch(() => undefined);
  }

  async #serveReplay(router: Zmq.Router): Promise<void> {
    try {
      for await (const frames of router) {
        const [identity, , start] = frames;
        if (identity === undefined || start?.length !== 8) continue;
        const from = Number(start.readBigUInt64BE());
        const n = this.#buffer.length;
        for (let i = 0; i < n; i++) {
          const entry = this.#buffer[(this.#bufferHead + i) % n];
          if (entry !== undefined && entry.seq >= from) await router.send([identity, '', seqBytes(entry.seq), entry.payload]);
        }
        await router.send([identity, '', END_SEQ, '']);
      }
    } catch {
      // The socket was closed.
    }
  }
}
