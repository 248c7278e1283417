import { systemClock, type Clock, type Decision, type SwitchyardError } from '@switchyard/core';
import { ExtProcStream } from '../stream/ext-proc-stream.js';
import type { ExtProcObserver, ExtProcSink } from '../stream/types.js';
import { resolveExtProcStreamOptions, type ResolvedExtProcStreamOptions } from '../stream/defaults.js';
import type { ProcessingRequest, ProcessingResponse } from '../wire/messages.js';
import type { EppServerStats } from './options.js';
import { GrpcStatus } from './http2/call.js';
import type { ExtProcStreamMetrics } from './stream-metrics.js';

/** What a transport does with one Process call's replies. */
export interface ProcessCallWriter {
  /** Sends one message. */
  write(message: ProcessingResponse): void;
  /** Ends the call with status OK. */
  end(): void;
  /** Ends the call with gRPC INTERNAL carrying `details`. */
  fail(details: string): void;
}

/** What a transport reports about one Process call. */
export interface ProcessCallEvents {
  /** A message from the proxy. */
  readonly message: (message: ProcessingRequest) => void;
  /** The proxy half-closed. */
  readonly halfClosed: () => void;
  /** The proxy cancelled (RST_STREAM, connection gone), or its deadline ended the call with `status` (DEADLINE_EXCEEDED). */
  readonly cancelled: (status?: number) => void;
  /** The transport failed (bad framing, socket error) and ends the call itself, with gRPC `status` (INTERNAL when not given). */
  readonly failed: (error: unknown, status?: number) => void;
}

function errorDetails(error: unknown): string {
  return error instanceof Error ? error.message : 'internal error';
}

/**
 * The transport-independent half of `envoy.service.ext_proc.v3.ExternalProcessor/Process`: one
 * {@link ExtProcStream} per call, the server's counters, and shutdown of the streams. Both
 * transports (raw `node:http2` and grpc-js) feed it the same events, so the protocol behaviour
 * is written once.
 */
export class ExtProcCalls {
  readonly #streams = new Set<ExtProcStream>();
  readonly #options: ResolvedExtProcStreamOptions;
  readonly #streamMetrics: ExtProcStreamMetrics | undefined;
  readonly #clock: Clock;
  readonly #counters = { decisions: 0, failures: 0, rejected: {} as Record<number, number> };
  #scheduling = 0;
  #closing = false;

  /**
   * @param options - the server's stream options; `observer` is wrapped to count
   * @param streamMetrics - llm-d's ext_proc stream families, when asked for (`--enable-grpc-stream-metrics`)
   */
  constructor(options: ResolvedExtProcStreamOptions, streamMetrics?: ExtProcStreamMetrics) {
    this.#streamMetrics = streamMetrics;
    this.#clock = options.clock ?? systemClock;
    const user = options.observer;
    const counters = this.#counters;
    const observer: ExtProcObserver = {
      onDecision(decision: Decision, latencyMs: number) {
        counters.decisions++;
        user?.onDecision?.(decision, latencyMs);
      },
      onRejected(error: SwitchyardError) {
        counters.rejected[error.status] = (counters.rejected[error.status] ?? 0) + 1;
        user?.onRejected?.(error);
      },
      onComplete: (outcome) => user?.onComplete?.(outcome),
      onFailure(error: unknown) {
        counters.failures++;
        user?.onFailure?.(error);
      },
    };
    // Resolved once for every stream of this server.
    this.#options = resolveExtProcStreamOptions({ ...options, observer }, 'eppServer');
  }

  /** Binds a new call: returns the handlers the transport calls as things happen. */
  open(writer: ProcessCallWriter): ProcessCallEvents {
    let ended = false;
    // llm-d times the whole call and labels it with the status it ended with, once per call.
    const metrics = this.#streamMetrics;
    const clock = this.#clock;
    const openedAt = metrics === undefined ? 0 : clock.now();
    metrics?.opened();
    let settled = metrics === undefined;
    const settle = (status: number): void => {
      if (settled) return;
      settled = true;
      metrics?.ended(status, clock.now() - openedAt);
    };
    // Declared before the sink so that a stream ending itself (immediate response) is forgotten too.
    let forget = (): void => {
      ended = true;
    };
    const sink: ExtProcSink = {
      send(message) {
        if (!ended) writer.write(message);
      },
      close() {
        if (ended) return;
        forget();
        settle(GrpcStatus.OK);
        writer.end();
      },
      fail(error) {
        if (ended) return;
        forget();
        settle(GrpcStatus.INTERNAL);
        writer.fail(errorDetails(error));
      },
    };
    const stream = new ExtProcStream(sink, this.#options);
    const streams = this.#streams;
    streams.add(stream);
    forget = (): void => {
      ended = true;
      streams.delete(stream);
    };
    if (this.#closing) stream.shutdown();
    return {
      message: (message) => {
        const before = stream.phase;
        try {
          stream.receive(message);
        } catch (error) {
          // A bug must cost this request (the proxy's failure mode applies), never the process.
          stream.error(error);
          sink.fail(error);
          return;
        }
        if (before !== 'scheduling' && stream.phase === 'scheduling') {
          this.#scheduling++;
          void stream.idle().finally(() => this.#scheduling--);
        }
      },
      halfClosed: () => {
        stream.end();
        sink.close();
        forget();
      },
      cancelled: (status) => {
        // Before the stream hears of it: its own clean-up may close the sink.
        settle(status ?? GrpcStatus.CANCELLED);
        stream.cancel();
        forget();
      },
      failed: (error, status) => {
        // The transport has ended the call already (or is about to, with its own status).
        settle(status ?? GrpcStatus.INTERNAL);
        stream.error(error);
        forget();
      },
    };
  }

  /** Open calls. */
  get size(): number {
    return this.#streams.size;
  }

  /** Requests still waiting for a decision are answered 503; calls opened from now on too. */
  shutdown(): void {
    this.#closing = true;
    for (const stream of this.#streams) stream.shutdown();
  }

  /** The server's counters. */
  stats(): EppServerStats {
    const c = this.#counters;
    return { activeStreams: this.#streams.size, schedulingStreams: this.#scheduling, decisions: c.decisions, rejected: { ...c.rejected }, failures: c.failures };
  }
}
