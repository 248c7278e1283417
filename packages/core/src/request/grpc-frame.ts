import { SwitchyardError } from '../errors/switchyard-error.js';

const HEADER_BYTES = 5;

/**
 * The message of a gRPC length-prefixed frame (1 byte compressed flag, 4 bytes big-endian length,
 * the message), as llm-d's parsers read it: a short frame, a compressed one, or a length past the
 * end is a 400 (`invalid or unsupported gRPC payload: …`, field `body`); bytes after the first
 * message are ignored.
 */
export function grpcMessage(frame: Uint8Array): Uint8Array {
  if (frame.length < HEADER_BYTES) throw badPayload(`invalid gRPC frame: expected at least ${HEADER_BYTES} bytes for header, got ${frame.length}`);
  if (frame[0] === 1) throw badPayload('compressed gRPC payload is not supported');
  const length = (((frame[1] as number) << 24) >>> 0) + ((frame[2] as number) << 16) + ((frame[3] as number) << 8) + (frame[4] as number);
  if (frame.length - HEADER_BYTES < length) {
    throw badPayload(`incomplete gRPC payload: header indicates ${length} bytes, but only ${frame.length - HEADER_BYTES} bytes are available`);
  }
  return frame.subarray(HEADER_BYTES, HEADER_BYTES + length);
}

const badPayload = (why: string): SwitchyardError => new SwitchyardError('BAD_REQUEST', `invalid or unsupported gRPC payload: ${why}`, { field: 'body' });

/** One field of a protobuf message: its number and, for length-delimited fields, the bytes. */
export interface WireField {
  readonly number: number;
  readonly wireType: number;
  /** The bytes of a length-delimited field (wire type 2); undefined for the others. */
  readonly bytes: Uint8Array | undefined;
  /** The value of a varint field (wire type 0), exact up to 2^53; undefined for the others. */
  readonly value?: number;
}

const malformed = (what: string, field: string): SwitchyardError => new SwitchyardError('BAD_REQUEST', `${what}: malformed protobuf message`, { field });

/** Reads a varint at `at`; returns [value, next offset], or undefined when it runs past the end or over 10 bytes. */
export function varint(buf: Uint8Array, at: number): [number, number] | undefined {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < 10; i++) {
    if (at + i >= buf.length) return undefined;
    const b = buf[at + i] as number;
    value += (b & 0x7f) * scale;
    scale *= 128;
    if ((b & 0x80) === 0) return [value, at + i + 1];
  }
  return undefined;
}

/**
 * The fields of a protobuf message in wire order (not decoded further), checking the framing as a
 * protobuf decoder does: a truncated field, a bad tag, a field number 0 or a group (wire types
 * 3/4, unused by the messages read here) is a 400 naming `what`.
 */
export function wireFields(buf: Uint8Array, what: string, field: string): WireField[] {
  const fields: WireField[] = [];
  let at = 0;
  while (at < buf.length) {
    const tag = varint(buf, at);
    if (tag === undefined) throw malformed(what, field);
    const number = Math.floor(tag[0] / 8);
    const wireType = tag[0] % 8;
    at = tag[1];
    if (number === 0 || number > 0x1fff_ffff) throw malformed(what, field);
    if (wireType === 0) {
      const v = varint(buf, at);
      if (v === undefined) throw malformed(what, field);
      at = v[1];
      fields.push({ number, wireType, bytes: undefined, value: v[0] });
    } else if (wireType === 1 || wireType === 5) {
      at += wireType === 1 ? 8 : 4;
      if (at > buf.length) throw malformed(what, field);
      fields.push({ number, wireType, bytes: undefined });
    } else if (wireType === 2) {
      const len = varint(buf, at);
      if (len === undefined || len[1] + len[0] > buf.length) throw malformed(what, field);
      fields.push({ number, wireType, bytes: buf.subarray(len[1], len[1] + len[0]) });
      at = len[1] + len[0];
    } else {
      throw malformed(what, field);
    }
  }
  return fields;
}
