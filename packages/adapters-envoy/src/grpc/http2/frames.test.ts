import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GrpcFramingError, GrpcMessageDecoder, encodeGrpcMessage } from './frames.js';

/** Feeds `stream` cut at `cuts` (positions, any order, repeats allowed); returns every message decoded. */
function decodeSplit(decoder: GrpcMessageDecoder, stream: Buffer, cuts: readonly number[]): number[][] {
  const points = [...new Set(cuts.map((c) => c % (stream.length + 1)))].sort((a, b) => a - b);
  const out: number[][] = [];
  let from = 0;
  for (const p of [...points, stream.length]) {
    for (const m of decoder.push(stream.subarray(from, p))) out.push([...m]);
    from = p;
  }
  return out;
}

describe('GrpcMessageDecoder', () => {
  it('decodes the same messages however the byte stream is split into DATA frames', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 20 }), (messages, cuts) => {
        const stream = Buffer.concat(messages.map((m) => encodeGrpcMessage(m)));
        const decoder = new GrpcMessageDecoder(1000);
        expect(decodeSplit(decoder, stream, cuts)).toEqual(messages.map((m) => [...m]));
        expect(decoder.atBoundary).toBe(true);
      }),
    );
  });

  it('knows when a stream stops inside a prefix or a message', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 100 }), fc.nat(), (message, cut) => {
        const frame = encodeGrpcMessage(message);
        const decoder = new GrpcMessageDecoder(1000);
        const at = 1 + (cut % (frame.length - 1));
        expect(decoder.push(frame.subarray(0, at))).toEqual([]);
        expect(decoder.atBoundary).toBe(false);
        expect(decoder.push(frame.subarray(at)).map((m) => [...m])).toEqual([[...message]]);
        expect(decoder.atBoundary).toBe(true);
      }),
    );
  });

  it('returns a message inside one chunk as a view of it, without copying', () => {
    const chunk = Buffer.concat([encodeGrpcMessage(Buffer.from('abc')), encodeGrpcMessage(Buffer.from('de'))]);
    const [a, b] = new GrpcMessageDecoder(10).push(chunk);
    expect(a?.buffer).toBe(chunk.buffer);
    expect(b?.toString()).toBe('de');
  });

  it('refuses a message over the limit from its prefix alone, before holding any of it', () => {
    const decoder = new GrpcMessageDecoder(10);
    expect(decoder.push(encodeGrpcMessage(Buffer.alloc(10)))).toHaveLength(1);
    const prefixOnly = encodeGrpcMessage(Buffer.alloc(11)).subarray(0, 5);
    expect(() => decoder.push(prefixOnly)).toThrow(expect.objectContaining({ reason: 'too-large', message: expect.stringContaining('11 bytes exceeds the limit of 10') as unknown }));
  });

  it('refuses compressed messages (only identity is accepted)', () => {
    const frame = encodeGrpcMessage(Buffer.from('x'));
    frame[0] = 1;
    expect(() => new GrpcMessageDecoder(10).push(frame)).toThrow(GrpcFramingError);
  });
});
