/*
 * Test helper (not exported from the package): a tiny KV-event publisher that behaves like a
 * vLLM engine on the wire: an XPUB socket sending [topic, seq, payload] and a ROUTER replay socket
 * answering [seq, payload]… then the end marker.
 */
import { Router, XPublisher } from 'zeromq';
import { encodeSeq, REPLAY_END_SEQ } from './wire.js';

/** Publishes batches on 127.0.0.1 with a replay buffer. */
export class TestPublisher {
  readonly pub = new XPublisher();
  readonly router = new Router();
  readonly buffer: { seq: number; payload: Uint8Array }[] = [];
  pubAddress = '';
  replayAddress = '';
  #subscribed!: Promise<void>;
  #closed = false;
  replayRequests: number[] = [];

  constructor(readonly topic = 'kv@pod-a@test-model') {}

  /** Binds both sockets on ephemeral ports and starts serving replays. */
  async start(): Promise<this> {
    this.pub.linger = 0;
    this.router.linger = 0;
    await this.pub.bind('tcp://127.0.0.1:*');
    await this.router.bind('tcp://127.0.0.1:*');
    this.pubAddress = this.pub.lastEndpoint ?? '';
    this.replayAddress = this.router.lastEndpoint ?? '';
    this.#subscribed = (async () => {
      // XPUB delivers subscription messages: 0x01 + topic prefix.
      for (;;) {
        const [msg] = await this.pub.receive();
        if (msg?.[0] === 1) return;
      }
    })();
    void this.#serveReplays();
    return this;
  }

  /** Resolves once a subscriber subscribed (so nothing sent afterwards is lost). */
  subscribed(): Promise<void> {
    return this.#subscribed;
  }

  /** Buffers and (unless `drop`) sends a batch with sequence `seq`. */
  async send(seq: number, payload: Uint8Array, options: { drop?: boolean; buffer?: boolean } = {}): Promise<void> {
    if (options.buffer !== false) this.buffer.push({ seq, payload });
    if (options.drop === true) return;
    await this.pub.send([this.topic, encodeSeq(seq), payload]);
  }

  /** Sends raw frames (for malformed-input tests). */
  async sendRaw(frames: (Buffer | string)[]): Promise<void> {
    await this.pub.send(frames);
  }

  close(): void {
    this.#closed = true;
    this.pub.close();
    this.router.close();
  }

  async #serveReplays(): Promise<void> {
    try {
      while (!this.#closed) {
        const frames = await this.router.receive();
        const identity = frames[0];
        const last = frames[frames.length - 1];
        if (identity === undefined || last?.byteLength !== 8) continue;
        const start = Number(last.readBigUInt64BE(0));
        this.replayRequests.push(start);
        for (const b of this.buffer) {
          if (b.seq >= start) await this.router.send([identity, '', encodeSeq(b.seq), b.payload]);
        }
        await this.router.send([identity, '', encodeSeq(REPLAY_END_SEQ), '']);
      }
    } catch {
      // closed
    }
  }
}
