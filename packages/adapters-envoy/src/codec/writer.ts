/** Scratch space shared by all writers: encoding is synchronous, so one buffer serves every call. */
let shared = Buffer.allocUnsafe(16 * 1024);

function varintSize(v: number): number {
  let n = 1;
  for (let x = v; x > 0x7f; x = Math.floor(x / 128)) n++;
  return n;
}

/**
 * A protobuf writer that builds one message with one copy of every byte. Small writes go to a
 * shared scratch buffer; nested messages get their length prefix inserted in place when closed
 * (the scratch bytes after it shift right by the prefix size); byte fields of 1 KiB or more are
 * kept by reference and joined in {@link ProtoWriter.finish}. Only one writer may be in use at a
 * time (they share the scratch buffer); every encoder here creates, fills and finishes one
 * synchronously.
 */
export class ProtoWriter {
  /** Finished segments (scratch copies and referenced large byte fields). */
  #parts: Uint8Array[] = [];
  /** Bytes in `#parts`. */
  #total = 0;
  #scratch = shared;
  #pos = 0;
  /** Open nested messages: [parts length, total, scratch position] per level. */
  #forks: number[] = [];

  #ensure(n: number): void {
    if (this.#pos + n <= this.#scratch.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.#scratch.length * 2, this.#pos + n));
    this.#scratch.copy(bigger, 0, 0, this.#pos);
    this.#scratch = bigger;
    shared = bigger;
  }

  #flush(): void {
    if (this.#pos === 0) return;
    this.#parts.push(Buffer.from(this.#scratch.subarray(0, this.#pos)));
    this.#total += this.#pos;
    this.#pos = 0;
  }

  #writeVarint(value: number): void {
    let v = value;
    while (v > 0x7f) {
      this.#scratch[this.#pos++] = (v % 128) | 0x80;
      v = Math.floor(v / 128);
    }
    this.#scratch[this.#pos++] = v;
  }

  /** Writes an unsigned varint (values up to 2^53). */
  varint(value: number): this {
    this.#ensure(10);
    this.#writeVarint(value);
    return this;
  }

  /** Writes a field tag. */
  tag(field: number, wireType: number): this {
    return this.varint(field * 8 + wireType);
  }

  /** Writes a varint field (enum, bool, uint). Zero is written too; callers skip defaults. */
  uintField(field: number, value: number): this {
    return this.tag(field, 0).varint(value);
  }

  /** Writes a bool field when true (proto3 omits false). */
  boolField(field: number, value: boolean | undefined): this {
    return value === true ? this.tag(field, 0).varint(1) : this;
  }

  /** Writes a double field. */
  doubleField(field: number, value: number): this {
    this.tag(field, 1);
    this.#ensure(8);
    this.#scratch.writeDoubleLE(value, this.#pos);
    this.#pos += 8;
    return this;
  }

  /** Writes a length-delimited bytes field; values of 1 KiB or more are referenced, not copied. */
  bytesField(field: number, value: Uint8Array): this {
    this.tag(field, 2).varint(value.length);
    if (value.length >= 1024) {
      this.#flush();
      this.#parts.push(value);
      this.#total += value.length;
    } else {
      this.#ensure(value.length);
      this.#scratch.set(value, this.#pos);
      this.#pos += value.length;
    }
    return this;
  }

  /** Writes a string field (UTF-8). */
  stringField(field: number, value: string): this {
    const n = Buffer.byteLength(value, 'utf8');
    if (n >= 1024) return this.bytesField(field, Buffer.from(value, 'utf8'));
    this.tag(field, 2).varint(n);
    this.#ensure(n);
    this.#pos += this.#scratch.write(value, this.#pos, 'utf8');
    return this;
  }

  /** Opens a nested message field; close it with {@link ProtoWriter.close}. */
  open(field: number): this {
    this.tag(field, 2);
    this.#forks.push(this.#parts.length, this.#total, this.#pos);
    return this;
  }

  /** Closes the innermost open message, inserting its length prefix. */
  close(): this {
    const start = this.#forks.pop() ?? 0;
    const total = this.#forks.pop() ?? 0;
    const index = this.#forks.pop() ?? 0;
    if (this.#parts.length === index) {
      // Everything since open() is still in scratch: shift it right and write the prefix in place.
      const length = this.#pos - start;
      const size = varintSize(length);
      this.#ensure(size);
      this.#scratch.copyWithin(start + size, start, this.#pos);
      const end = this.#pos + size;
      this.#pos = start;
      this.#writeVarint(length);
      this.#pos = end;
      return this;
    }
    // A large field was referenced in between: the content spans parts; insert the prefix as a part.
    this.#flush();
    const length = this.#total - total - start;
    const part = this.#parts[index] ?? new Uint8Array(0);
    const head = Buffer.from(part.buffer, part.byteOffset, part.byteLength);
    const prefix: number[] = [];
    for (let v = length; ; v = Math.floor(v / 128)) {
      if (v <= 0x7f) {
        prefix.push(v);
        break;
      }
      prefix.push((v % 128) | 0x80);
    }
    // parts[index] begins with the `start` scratch bytes written before open(); the prefix goes after them.
    this.#parts.splice(index, 1, head.subarray(0, start), Uint8Array.from(prefix), head.subarray(start));
    this.#total += prefix.length;
    return this;
  }

  /** The encoded message. */
  finish(): Buffer {
    if (this.#forks.length > 0) throw new Error('ProtoWriter.finish: unclosed nested message');
    if (this.#parts.length === 0) return Buffer.from(this.#scratch.subarray(0, this.#pos));
    this.#flush();
    return Buffer.concat(this.#parts, this.#total);
  }
}
