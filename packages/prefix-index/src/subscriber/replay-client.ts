import type { Clock } from '@switchyard/core';
import { decodeSeq, encodeSeq, REPLAY_END_SEQ } from './wire.js';
import type { ZmqModule } from './zmq-types.js';

/**
 * How a replay request ended.
 * @public
 * @category Subscriber
 */
export type ReplayOutcome = 'complete' | 'timeout' | 'failure';

/**
 * Options of {@link requestReplay}.
 * @public
 * @category Subscriber
 */
export interface ReplayRequest {
  /** zeromq module. */
  readonly zmq: ZmqModule;
  /** The engine's replay ROUTER endpoint, e.g. `tcp://10.0.0.1:5558`. */
  readonly address: string;
  /** First sequence number wanted. */
  readonly fromSeq: number;
  /** Time source for the timeout. */
  readonly clock: Clock;
  /** Give up after this long. */
  readonly timeoutMs: number;
  /** Called for every replayed batch, in order. */
  readonly onBatch: (seq: number, payload: Buffer) => void;
  /** Aborting closes the socket; the request then ends as `failure`. */
  readonly signal?: AbortSignal;
}

/**
 * Asks an engine's replay socket for every buffered batch from `fromSeq` on. The protocol (vLLM,
 * SGLang): the client sends the start sequence as 8 bytes big-endian; the ROUTER answers with
 * `[seq, payload]` per buffered batch and ends with `[ff×8, ""]`. A DEALER is used instead of a
 * REQ socket because the answer is several messages; ROUTER replies to it carry the empty
 * delimiter frame, which is skipped. A fresh socket per request keeps late answers of a
 * timed-out request from mixing with the next one.
 * @public
 * @category Subscriber
 */
export async function requestReplay(request: ReplayRequest): Promise<ReplayOutcome> {
  const dealer = new request.zmq.Dealer();
  dealer.linger = 0;
  // An object, so the timer callback's write is visible to the flow analysis below.
  const state = { timedOut: false, closed: false };
  const close = (): void => {
    if (state.closed) return;
    state.closed = true;
    dealer.close();
  };
  const timer = request.clock.setTimeout(() => {
    state.timedOut = true;
    close();
  }, request.timeoutMs);
  request.signal?.addEventListener('abort', close, { once: true });
  try {
    if (request.signal?.aborted === true) return 'failure';
    dealer.connect(request.address);
    await dealer.send([Buffer.alloc(0), encodeSeq(request.fromSeq)]);
    for (;;) {
      const frames = await dealer.receive();
      const start = frames.length > 0 && frames[0]?.byteLength === 0 ? 1 : 0;
      const seqFrame = frames[start];
      const payload = frames[start + 1];
      const seq = seqFrame === undefined ? undefined : decodeSeq(seqFrame);
      if (seq === undefined) return 'failure';
      if (seq === REPLAY_END_SEQ) return 'complete';
      if (payload === undefined || seq > BigInt(Number.MAX_SAFE_INTEGER)) return 'failure';
      request.onBatch(Number(seq), payload);
    }
  } catch {
    return state.timedOut ? 'timeout' : 'failure';
  } finally {
    request.clock.clearTimeout(timer);
    request.signal?.removeEventListener('abort', close);
    close();
  }
}
