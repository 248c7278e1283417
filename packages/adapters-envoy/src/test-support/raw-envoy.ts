/*
 * Test/bench-only: a minimal Envoy stand-in speaking gRPC over raw node:http2 with pre-encoded
 * messages, so benchmarks measure the endpoint picker rather than a JavaScript gRPC client.
 * Not exported from the package.
 */
import { connect, constants, type ClientHttp2Session } from 'node:http2';

const PATH = '/envoy.service.ext_proc.v3.ExternalProcessor/Process';

/** Frames one protobuf message as a gRPC length-prefixed message. */
export function grpcFrame(message: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(5 + message.length);
  out[0] = 0;
  out.writeUInt32BE(message.length, 1);
  out.set(message, 5);
  return out;
}

/**
 * Splits a byte stream into gRPC message payloads without re-copying what it holds: chunks of the
 * current message are collected and joined once it is complete.
 */
export class GrpcFrameParser {
  #head: Buffer = Buffer.alloc(0);
  #parts: Buffer[] = [];
  #have = 0;
  #need = -1;

  /** Feeds bytes; returns the payloads completed by them. */
  push(chunk: Buffer): Buffer[] {
    const out: Buffer[] = [];
    let rest = chunk;
    while (rest.length > 0) {
      if (this.#need < 0) {
        const head = this.#head.length === 0 ? rest : Buffer.concat([this.#head, rest]);
        if (head.length < 5) {
          this.#head = head;
          return out;
        }
        this.#need = head.readUInt32BE(1);
        this.#head = Buffer.alloc(0);
        rest = head.subarray(5);
      }
      const take = Math.min(this.#need - this.#have, rest.length);
      if (take > 0) this.#parts.push(rest.subarray(0, take));
      this.#have += take;
      rest = rest.subarray(take);
      if (this.#have === this.#need) {
        out.push(this.#parts.length === 1 && this.#parts[0] !== undefined ? this.#parts[0] : Buffer.concat(this.#parts, this.#have));
        this.#parts = [];
        this.#have = 0;
        this.#need = -1;
      }
    }
    return out;
  }
}

/** One HTTP/2 connection to the picker. */
export class RawEnvoy {
  readonly #session: ClientHttp2Session;

  constructor(port: number) {
    this.#session = connect(`http://127.0.0.1:${port}`);
    this.#session.on('error', () => undefined);
  }

  /**
   * Runs one exchange: writes `requestFrames` (already framed), waits until `expectReplies`
   * messages came back, writes `afterFrames` and half-closes. Resolves with the reply payloads.
   */
  exchange(requestFrames: readonly Buffer[], expectReplies: number, afterFrames: readonly Buffer[] = []): Promise<Buffer[]> {
    return new Promise((resolve, reject) => {
      const stream = this.#session.request({
        [constants.HTTP2_HEADER_METHOD]: 'POST',
        [constants.HTTP2_HEADER_PATH]: PATH,
        'content-type': 'application/grpc',
        te: 'trailers',
      });
      const replies: Buffer[] = [];
      const parser = new GrpcFrameParser();
      let done = false;
      stream.on('data', (chunk: Buffer) => {
        for (const m of parser.push(chunk)) replies.push(m);
        if (!done && replies.length >= expectReplies) {
          done = true;
          for (const f of afterFrames) stream.write(f);
          stream.end();
          resolve(replies);
        }
      });
      stream.on('error', (e: Error) => {
        if (!done) reject(e);
      });
      stream.on('close', () => {
        if (!done) reject(new Error(`stream closed after ${replies.length} of ${expectReplies} replies`));
      });
      for (const f of requestFrames) stream.write(f);
    });
  }

  close(): void {
    this.#session.close();
  }
}
