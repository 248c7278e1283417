/*
 * Test/bench-only: a minimal Envoy stand-in speaking gRPC over raw node:http2 with pre-encoded
 * messages, so benchmarks measure the endpoint picker rather than a JavaScript gRPC client.
 * Not exported from the package.
 */
import { connect, constants, type ClientHttp2Session } from 'node:http2';
import { GrpcMessageDecoder, encodeGrpcMessage } from '../grpc/http2/frames.js';

const PATH = '/envoy.service.ext_proc.v3.ExternalProcessor/Process';

/** Frames one protobuf message as a gRPC length-prefixed message. */
export const grpcFrame = encodeGrpcMessage;

/** The server's message decoder without a size limit: splits a byte stream into gRPC message payloads. */
export class GrpcFrameParser extends GrpcMessageDecoder {
  constructor() {
    super(Number.MAX_SAFE_INTEGER);
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
