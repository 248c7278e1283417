/*
 * The request body as ext_proc delivers it: chunk by chunk (FULL_DUPLEX_STREAMED), or in one
 * message (BUFFERED). Each chunk is a view of the transport's message buffer; keeping the chunks
 * until end of stream and joining them then holds the body twice at the moment of the join (the
 * chunks and the joined copy) and keeps every transport buffer alive until the request is parsed.
 *
 * With a Content-Length, the body is instead written into one buffer as the chunks arrive, so a
 * chunk's transport buffer can be collected as soon as it is copied, and the body is held once.
 */

/**
 * How much larger than the bytes received so far the first buffer may be: enough for a 512 KiB
 * body sent as 64 KiB chunks (Envoy's) to get its final buffer at once, while a client declaring a
 * huge Content-Length and sending a few bytes makes the EPP allocate at most this many times what
 * it sent. Beyond that the buffer doubles (capped at the declared length).
 */
const FIRST_BUFFER_FACTOR = 8;

/** A few bytes of body do not need a buffer sized for many chunks. */
const MIN_FIRST_BUFFER = 16 * 1024;

/**
 * Collects one request body. `heldBytes` counts the bytes of every buffer this object keeps a
 * reference to (its own buffers and the chunks it holds), so the memory a body costs while it
 * arrives can be asserted without measuring the process.
 */
export class RequestBodyBuffer {
  /** Declared Content-Length, when the headers gave a usable one. */
  readonly #expected: number | undefined;
  /** The body written so far (sized mode), or undefined. */
  #buffer: Buffer | undefined;
  /** Chunks held as they came (no usable Content-Length, or more bytes than it declared). */
  #chunks: Buffer[] = [];
  #chunkBytes = 0;
  #length = 0;
  #peak = 0;
  /** The only chunk, kept as is: a body in one message needs no copy. */
  #single: Buffer | undefined;

  /**
   * @param expectedBytes - the request's Content-Length when it is a positive integer within the
   *   body limit; undefined when absent or unusable (the body is then joined once at the end)
   */
  constructor(expectedBytes: number | undefined) {
    this.#expected = expectedBytes !== undefined && Number.isSafeInteger(expectedBytes) && expectedBytes > 0 ? expectedBytes : undefined;
  }

  /** Body bytes received so far. */
  get length(): number {
    return this.#length;
  }

  /** Bytes of the buffers and chunks currently referenced. */
  get heldBytes(): number {
    return (this.#buffer?.length ?? 0) + this.#chunkBytes + (this.#single?.length ?? 0);
  }

  /** The largest `heldBytes` seen, including the moment a buffer is replaced by a larger one. */
  get peakHeldBytes(): number {
    return this.#peak;
  }

  /** Adds one chunk; empty chunks are ignored. */
  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    const expected = this.#expected;
    if (this.#length === 0 && (expected === undefined || chunk.length >= expected)) {
      // Possibly the whole body in one message: keep the view until a second chunk shows otherwise.
      this.#single = chunk;
      this.#length = chunk.length;
      this.#note(0);
      return;
    }
    if (this.#single !== undefined) {
      const first = this.#single;
      this.#single = undefined;
      this.#hold(first);
    }
    if (expected !== undefined && this.#chunks.length === 0 && this.#length + chunk.length <= expected) this.#write(chunk, expected);
    else this.#hold(chunk);
    this.#length += chunk.length;
    this.#note(0);
  }

  /** The whole body as one buffer; the buffer's own references are dropped. */
  take(): Buffer {
    const single = this.#single;
    const buffer = this.#buffer;
    const chunks = this.#chunks;
    // Unsized, or more bytes than the Content-Length declared: the join holds chunks and copy.
    if (chunks.length > 1) this.#note(this.#length);
    this.#single = undefined;
    this.#buffer = undefined;
    this.#chunks = [];
    this.#chunkBytes = 0;
    if (single !== undefined) return single;
    if (chunks.length === 0) {
      if (buffer === undefined) return EMPTY;
      // Fewer bytes than declared: do not let the request keep a mostly empty buffer alive.
      return buffer.length > 2 * this.#length ? Buffer.from(buffer.subarray(0, this.#length)) : buffer.subarray(0, this.#length);
    }
    return chunks.length === 1 && chunks[0] !== undefined ? chunks[0] : Buffer.concat(chunks, this.#length);
  }

  /** Copies `chunk` into the sized buffer, growing it (up to `expected`) when it is full. */
  #write(chunk: Buffer, expected: number): void {
    const need = this.#length + chunk.length;
    let buffer = this.#buffer;
    if (buffer === undefined || buffer.length < need) {
      const grown = buffer === undefined ? Math.max(need * FIRST_BUFFER_FACTOR, MIN_FIRST_BUFFER) : Math.max(need, buffer.length * 2);
      const next = Buffer.allocUnsafe(Math.min(expected, grown));
      if (buffer !== undefined) buffer.copy(next, 0, 0, this.#length);
      // Both buffers are alive until the copy above is done.
      this.#note(next.length);
      buffer = next;
      this.#buffer = next;
    }
    chunk.copy(buffer, this.#length);
  }

  /** Keeps a chunk as a view; a sized buffer already written becomes the first held chunk. */
  #hold(chunk: Buffer): void {
    const buffer = this.#buffer;
    if (buffer !== undefined && this.#chunks.length === 0) {
      this.#buffer = undefined;
      // The view keeps the whole buffer alive: count its capacity, not the bytes written.
      this.#chunks.push(buffer.subarray(0, this.#length));
      this.#chunkBytes += buffer.length;
    }
    this.#chunks.push(chunk);
    this.#chunkBytes += chunk.length;
  }

  #note(extra: number): void {
    const held = this.heldBytes + extra;
    if (held > this.#peak) this.#peak = held;
  }
}

const EMPTY = Buffer.alloc(0);

/**
 * The Content-Length of a request's headers as the body size to expect, or undefined when it is
 * absent, not a plain decimal integer, zero, or over `maxBodyBytes` (that body is refused as it
 * arrives anyway, so nothing is allocated for it up front).
 */
export function expectedBodyBytes(contentLength: string | undefined, maxBodyBytes: number): number | undefined {
  if (contentLength === undefined || !/^\d{1,16}$/.test(contentLength)) return undefined;
  const n = Number(contentLength);
  return n > 0 && n <= maxBodyBytes ? n : undefined;
}
