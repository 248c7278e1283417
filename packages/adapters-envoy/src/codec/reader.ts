/**
 * A protobuf reader over one buffer. Byte fields are returned as views (no copy); strings are
 * decoded as UTF-8. Malformed input throws a RangeError, which gRPC reports as a decode failure.
 */
export class ProtoReader {
  readonly buf: Buffer;
  pos: number;
  readonly end: number;

  constructor(buf: Buffer, start = 0, end = buf.length) {
    this.buf = buf;
    this.pos = start;
    this.end = end;
  }

  /** Reads an unsigned varint (exact up to 2^53; longer values lose low bits, which no field here needs). */
  varint(): number {
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new RangeError('protobuf: truncated varint');
      const b = this.buf[this.pos++] ?? 0;
      result += (b & 0x7f) * scale;
      if (b < 0x80) return result;
      scale *= 128;
    }
    throw new RangeError('protobuf: varint longer than 10 bytes');
  }

  /** Reads a length prefix and returns the end offset of the delimited field. */
  delimited(): number {
    const length = this.varint();
    const end = this.pos + length;
    if (end > this.end) throw new RangeError('protobuf: length-delimited field runs past the message');
    return end;
  }

  /** Reads a bytes field as a view of the underlying buffer. */
  bytes(): Buffer {
    const end = this.delimited();
    const out = this.buf.subarray(this.pos, end);
    this.pos = end;
    return out;
  }

  /** Reads a string field. */
  string(): string {
    const end = this.delimited();
    const out = this.buf.toString('utf8', this.pos, end);
    this.pos = end;
    return out;
  }

  /** Reads a double. */
  double(): number {
    if (this.pos + 8 > this.end) throw new RangeError('protobuf: truncated double');
    const v = this.buf.readDoubleLE(this.pos);
    this.pos += 8;
    return v;
  }

  /** Skips a field of the given wire type. */
  skip(wireType: number): void {
    switch (wireType) {
      case 0:
        this.varint();
        return;
      case 1:
        this.pos += 8;
        break;
      case 2:
        this.pos = this.delimited();
        return;
      case 5:
        this.pos += 4;
        break;
      default:
        throw new RangeError(`protobuf: unsupported wire type ${wireType}`);
    }
    if (this.pos > this.end) throw new RangeError('protobuf: truncated field');
  }
}
