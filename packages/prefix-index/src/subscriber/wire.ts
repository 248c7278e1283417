/**
 * Sequence number that ends a replay stream (`ff` × 8, i.e. -1 signed).
 * @public
 * @category Subscriber
 */
export const REPLAY_END_SEQ = 0xffffffffffffffffn;

/**
 * Encodes a sequence number as 8 bytes big-endian (the second frame of every KV-event message,
 * and the body of a replay request).
 * @public
 * @category Subscriber
 */
export function encodeSeq(seq: number | bigint): Buffer {
  const out = Buffer.alloc(8);
  out.writeBigUInt64BE(BigInt.asUintN(64, BigInt(seq)));
  return out;
}

/**
 * Decodes an 8-byte big-endian sequence frame; undefined when the frame is not 8 bytes.
 * @public
 * @category Subscriber
 */
export function decodeSeq(frame: Uint8Array): bigint | undefined {
  if (frame.byteLength !== 8) return undefined;
  return Buffer.from(frame.buffer, frame.byteOffset, 8).readBigUInt64BE(0);
}

/**
 * Model named by a topic `kv@<pod>@<model>` (the model may itself contain `@`), or undefined.
 * @public
 * @category Subscriber
 */
export function topicModel(topic: string): string | undefined {
  const first = topic.indexOf('@');
  if (first < 0) return undefined;
  const second = topic.indexOf('@', first + 1);
  if (second < 0 || second === topic.length - 1) return undefined;
  return topic.slice(second + 1);
}
