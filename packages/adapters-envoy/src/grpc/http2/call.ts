import { constants, type OutgoingHttpHeaders, type ServerHttp2Stream } from 'node:http2';
import type { Clock, TimerHandle } from '@switchyard/core';
import { GRPC_PREFIX_BYTES } from './frames.js';

/** The gRPC status codes this server sends. */
export const GrpcStatus = { OK: 0, CANCELLED: 1, INVALID_ARGUMENT: 3, DEADLINE_EXCEEDED: 4, RESOURCE_EXHAUSTED: 8, UNIMPLEMENTED: 12, INTERNAL: 13, UNAVAILABLE: 14 } as const;

/** The response headers of every call (identity only: nothing is compressed either way). */
const RESPONSE_HEADERS: OutgoingHttpHeaders = { ':status': 200, 'content-type': 'application/grpc', 'grpc-accept-encoding': 'identity' };

/**
 * `grpc-message` is percent-encoded: printable ASCII except `%` as is, everything else as `%XX`
 * of its UTF-8 bytes (gRPC over HTTP/2, "Status-Message").
 */
export function encodeGrpcMessageText(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    out += byte >= 0x20 && byte <= 0x7e && byte !== 0x25 ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * The server side of one gRPC call on an HTTP/2 stream: response headers sent with the first
 * message, messages length-prefixed, the status in trailers (or, when nothing was sent, in a
 * trailers-only response). Everything after the status is ignored.
 */
export class GrpcServerCall {
  readonly #stream: ServerHttp2Stream;
  #headersSent = false;
  #ended = false;
  #trailers: OutgoingHttpHeaders = {};
  #deadline: { readonly clock: Clock; readonly timer: TimerHandle } | undefined;
  #onExpired: (() => void) | undefined;

  constructor(stream: ServerHttp2Stream) {
    this.#stream = stream;
    stream.once('close', () => {
      this.#clearDeadline();
    });
    stream.on('wantTrailers', () => {
      stream.sendTrailers(this.#trailers);
      this.#resetSoon();
    });
  }

  /** True once the status was sent (or the stream is gone). */
  get ended(): boolean {
    return this.#ended || this.#stream.closed || this.#stream.destroyed;
  }

  /**
   * Sends one encoded message. Returns false when the stream's send buffer is full: the caller
   * should stop reading until `'drain'` (the proxy is not reading our replies).
   */
  write(message: Uint8Array): boolean {
    if (this.ended) return true;
    const stream = this.#stream;
    if (!this.#headersSent) {
      this.#headersSent = true;
      stream.respond(RESPONSE_HEADERS, { waitForTrailers: true });
    }
    const prefix = Buffer.allocUnsafe(GRPC_PREFIX_BYTES);
    prefix[0] = 0;
    prefix.writeUInt32BE(message.length, 1);
    // Prefix and message leave in one writev: the message is not copied to be framed.
    stream.cork();
    stream.write(prefix);
    const ok = stream.write(message);
    stream.uncork();
    return ok;
  }

  /**
   * Ends the call with DEADLINE_EXCEEDED if it still runs `ms` from now (the `grpc-timeout` the
   * client sent), then tells the route through {@link GrpcServerCall.onExpired}.
   */
  startDeadline(ms: number, clock: Clock): void {
    this.#clearDeadline();
    const timer = clock.setTimeout(() => {
      this.#deadline = undefined;
      if (this.ended) return;
      this.end(GrpcStatus.DEADLINE_EXCEEDED, 'Deadline exceeded');
      this.#onExpired?.();
    }, ms);
    this.#deadline = { clock, timer };
  }

  /** What the route does when the deadline ends the call (stop the work the call started). */
  set onExpired(fn: () => void) {
    this.#onExpired = fn;
  }

  /** Ends the call with `status` (and `message`, when given). */
  end(status: number, message?: string): void {
    if (this.ended) return;
    this.#ended = true;
    this.#clearDeadline();
    const trailers: OutgoingHttpHeaders = { 'grpc-status': String(status) };
    if (message !== undefined && message !== '') trailers['grpc-message'] = encodeGrpcMessageText(message);
    const stream = this.#stream;
    if (this.#headersSent) {
      // The trailers leave on 'wantTrailers', after the last message.
      this.#trailers = trailers;
      stream.end();
      return;
    }
    this.#headersSent = true;
    stream.respond({ ...RESPONSE_HEADERS, ...trailers }, { endStream: true });
    this.#resetSoon();
  }

  /**
   * The call is over: a proxy still sending is told with RST_STREAM(NO_ERROR) once the status is
   * out (HTTP/2 §8.1), so the stream does not stay half-open.
   */
  #resetSoon(): void {
    if (!this.#stream.readableEnded) setImmediate(() => { this.#reset(); });
  }

  #clearDeadline(): void {
    const d = this.#deadline;
    if (d === undefined) return;
    this.#deadline = undefined;
    d.clock.clearTimeout(d.timer);
  }

  #reset(): void {
    const stream = this.#stream;
    if (!stream.closed && !stream.destroyed && !stream.readableEnded) stream.close(constants.NGHTTP2_NO_ERROR);
  }
}
