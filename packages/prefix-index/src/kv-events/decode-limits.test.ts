import fc from 'fast-check';
import { Packr, Unpackr } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { decodeKvEventBatch, encodeVllmEventBatch, type KvEventBatch } from '@switchyard/prefix-index';

const packr = new Packr({ useRecords: false, variableMapSize: true });
const hex = (s: string): Buffer => Buffer.from(s.replace(/\s+/g, ''), 'hex');

/** Heap growth while `run` executes (a hostile message that allocates shows up as tens of MB). */
function heapGrowth(run: () => void): number {
  const before = process.memoryUsage().heapUsed;
  let peak = before;
  for (let i = 0; i < 5; i++) {
    run();
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  }
  return peak - before;
}

describe('decodeKvEventBatch limits', () => {
  it('rejects a 6-byte array header claiming 30M elements without allocating for it', () => {
    const bomb = hex('dd 01 c9 c3 80 01');
    const result = decodeKvEventBatch(bomb);
    expect(result.batch).toBeUndefined();
    expect(result.errors).toEqual([{ cause: 'malformed-msgpack', message: 'payload: the container at byte 0 claims 30000000 values, only 1 bytes left' }]);
    // A general decoder allocates the 30M-slot array first (~230 MB); the bound check allocates nothing.
    expect(heapGrowth(() => decodeKvEventBatch(bomb))).toBeLessThan(16 * 1024 * 1024);
  });

  it('rejects lying lengths at every nesting level: nested arrays, maps, strings, binaries', () => {
    for (const bytes of [
      '92 00 dd 00 10 00 00 01', // second element: array32 of 1M in 1 byte
      '81 a1 61 df 00 10 00 00 00', // map value: map32 of 1M pairs
      '91 db 7f ff ff ff 61', // str32 of 2 GB
      '91 c6 00 10 00 00 01', // bin32 of 1 MB
      '93 01', // array of 3 with one element
    ]) {
      const { batch, errors } = decodeKvEventBatch(hex(bytes));
      expect(batch, bytes).toBeUndefined();
      expect(errors[0]?.cause, bytes).toBe('malformed-msgpack');
    }
  });

  it('enforces the payload size, value count and depth limits with cause limit-exceeded', () => {
    const batch: KvEventBatch = { ts: 1, events: [{ type: 'BlockRemoved', blockHashes: Array.from({ length: 100 }, (_, i) => i), medium: 'gpu' }] };
    const bytes = encodeVllmEventBatch(batch, { encoding: 'array' });
    expect(decodeKvEventBatch(bytes).errors).toEqual([]);
    expect(decodeKvEventBatch(bytes, { limits: { maxPayloadBytes: 10 } }).errors[0]).toMatchObject({ cause: 'limit-exceeded', message: expect.stringContaining('exceeds the limit of 10') as unknown });
    expect(decodeKvEventBatch(bytes, { limits: { maxValues: 50 } }).errors[0]).toMatchObject({ cause: 'limit-exceeded', message: 'payload: more than 50 values' });
    let nested: unknown = 1;
    for (let i = 0; i < 20; i++) nested = [nested];
    const deep = packr.pack([1, nested]);
    expect(decodeKvEventBatch(deep).errors[0]).toMatchObject({ cause: 'limit-exceeded', message: 'payload: nesting deeper than 16' });
  });

  it('accepts exactly what a msgpack decoder accepts among well-sized values (property)', () => {
    const unpackr = new Unpackr({ useRecords: false, mapsAsObjects: true });
    fc.assert(
      fc.property(fc.anything({ maxDepth: 4, withTypedArray: true }), (value) => {
        const bytes = packr.pack([1, [value]]);
        const { errors } = decodeKvEventBatch(bytes);
        // Whatever the event says, the bound check must not be what rejected a valid encoding.
        expect(errors.filter((e) => e.cause === 'malformed-msgpack' || e.cause === 'limit-exceeded')).toEqual([]);
        expect(() => {
          unpackr.unpack(bytes);
        }).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });

  it('never throws and never allocates beyond its input on random bytes (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const { batch, errors } = decodeKvEventBatch(bytes);
        expect(batch !== undefined || errors.length > 0).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
