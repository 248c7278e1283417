/*
 * gRPC's length-prefixed messages (the "Length-Prefixed-Message" of the gRPC over HTTP/2
 * protocol): one flag byte (1 = compressed), a 4-byte big-endian length, then the message. HTTP/2
 * DATA frames carry these with no alignment: a message may span many frames, a frame may hold many
 * messages, and a prefix may be split between two frames.
 */

/** Bytes of the prefix in front of every message. */
export const GRPC_PREFIX_BYTES = 5;

/** Why a byte stream cannot be decoded; the transport maps it to a gRPC status. */
export class GrpcFramingError extends Error {
  /** `too-large`: a message over the limit (RESOURCE_EXHAUSTED); `compressed`: a compressed message, not supported (UNIMPLEMENTED). */
  readonly reason: 'too-large' | 'compressed';

  constructor(reason: 'too-large' | 'compressed', message: string) {
    super(message);
    this.name = 'GrpcFramingError';
    this.reason = reason;
  }
}

/** Prefixes one encoded message, copying it once into the frame. */
export function encodeGrpcMessage(message: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(GRPC_PREFIX_BYTES + message.length);
  out[0] = 0;
  out.writeUInt32BE(message.length, 1);
  out.set(message, GRPC_PREFIX_BYTES);
  return out;
}

const EMPTY = Buffer.alloc(0);

/**
 * Splits the bytes of one HTTP/2 stream into gRPC messages as they arrive. A message inside one
 * chunk is returned as a view of it (no copy); a message spread over chunks is joined once, when
 * complete. The length is checked against `maxMessageBytes` as soon as the prefix is read, so an
 * oversized message is refused before any of it is held.
 */
export class GrpcMessageDecoder {
  readonly #maxMessageBytes: number;
  /** The first bytes of a prefix split between chunks. */
  #head: Buffer = EMPTY;
  #parts: Buffer[] = [];
  #have = 0;
  /** Length of the message being read; -1 while reading a prefix. */
  #need = -1;

  /** @param maxMessageBytes - largest message accepted */
  constructor(maxMessageBytes: number) {
    this.#maxMessageBytes = maxMessageBytes;
  }

  /** True when no message or prefix is partly read (a clean place for the stream to end). */
  get atBoundary(): boolean {
    return this.#need < 0 && this.#head.length === 0;
  }

  /**
   * Feeds one chunk; returns the messages it completed, in order.
   * @throws GrpcFramingError for a message over the limit or a compressed one
   */
  push(chunk: Buffer): Buffer[] {
    const out: Buffer[] = [];
    let rest = chunk;
    while (rest.length > 0) {
      if (this.#need < 0) {
        const head = this.#head.length === 0 ? rest : Buffer.concat([this.#head, rest]);
        if (head.length < GRPC_PREFIX_BYTES) {
          this.#head = head;
          return out;
        }
        this.#head = EMPTY;
        if (head[0] !== 0) throw new GrpcFramingError('compressed', 'compressed gRPC messages are not supported (grpc-accept-encoding: identity)');
        const length = head.readUInt32BE(1);
        if (length > this.#maxMessageBytes) throw new GrpcFramingError('too-large', `gRPC message of ${length} bytes exceeds the limit of ${this.#maxMessageBytes}`);
        rest = head.subarray(GRPC_PREFIX_BYTES);
        if (length === 0) {
          // Nothing follows the prefix: complete now, even when the chunk ends here.
          out.push(EMPTY);
          continue;
        }
        this.#need = length;
      }
      const take = Math.min(this.#need - this.#have, rest.length);
      if (take > 0) this.#parts.push(rest.subarray(0, take));
      this.#have += take;
      rest = rest.subarray(take);
      if (this.#have === this.#need) {
        const only = this.#parts.length === 1 ? this.#parts[0] : undefined;
        out.push(only ?? Buffer.concat(this.#parts, this.#have));
        this.#parts = [];
        this.#have = 0;
        this.#need = -1;
      }
    }
    return out;
  }
}
