import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GrpcFrameParser, grpcFrame } from './raw-envoy.js';

describe('GrpcFrameParser (bench and test helper)', () => {
  it('recovers every message however the stream is split', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 6 }), fc.array(fc.nat(), { maxLength: 10 }), (messages, cuts) => {
        const stream = Buffer.concat(messages.map((m) => grpcFrame(m)));
        const points = [...new Set(cuts.map((c) => c % (stream.length + 1)))].sort((a, b) => a - b);
        const parser = new GrpcFrameParser();
        const out: Buffer[] = [];
        let from = 0;
        for (const p of [...points, stream.length]) {
          out.push(...parser.push(stream.subarray(from, p)));
          from = p;
        }
        expect(out.map((b) => [...b])).toEqual(messages.map((m) => [...m]));
      }),
    );
  });
});
