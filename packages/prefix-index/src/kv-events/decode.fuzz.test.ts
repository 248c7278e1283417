import fc from 'fast-check';
import { Packr } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { decodeKvEventBatch, encodeVllmEventBatch, type KvEvent, type KvEventBatch } from '@switchyard/prefix-index';

const packr = new Packr({ useRecords: false, variableMapSize: true });

const hash = fc.oneof(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), fc.bigInt({ min: 2n ** 53n, max: 2n ** 64n - 1n }));
const medium = fc.constantFrom('gpu', 'cpu', 'disk');
const event: fc.Arbitrary<KvEvent> = fc.oneof(
  fc.record({
    type: fc.constant('BlockStored' as const),
    blockHashes: fc.array(hash, { maxLength: 4 }),
    parentBlockHash: fc.option(hash, { nil: undefined }),
    tokenIds: fc.array(fc.integer({ min: 0, max: 0xffffffff }), { maxLength: 16 }),
    blockSize: fc.integer({ min: 1, max: 64 }),
    medium,
    loraName: fc.option(fc.string({ maxLength: 8 }), { nil: undefined }),
    groupIdx: fc.option(fc.nat(3), { nil: undefined }),
  }),
  fc.record({ type: fc.constant('BlockRemoved' as const), blockHashes: fc.array(hash, { maxLength: 4 }), medium }),
  fc.constant({ type: 'AllBlocksCleared' as const }),
);
const batch: fc.Arbitrary<KvEventBatch> = fc.record({
  ts: fc.double({ noNaN: true, noDefaultInfinity: true }),
  events: fc.array(event, { maxLength: 6 }),
  dataParallelRank: fc.option(fc.nat(8), { nil: undefined }),
});

/** Structural validity of whatever the decoder returns. */
function wellFormed(b: KvEventBatch | undefined): void {
  if (b === undefined) return;
  expect(typeof b.ts).toBe('number');
  for (const e of b.events) {
    expect(['BlockStored', 'BlockRemoved', 'AllBlocksCleared']).toContain(e.type);
    if (e.type === 'AllBlocksCleared') continue;
    for (const h of e.blockHashes) expect(['number', 'bigint']).toContain(typeof h);
    expect(typeof e.medium).toBe('string');
    if (e.type === 'BlockStored') {
      expect(e.blockSize).toBeGreaterThan(0);
      for (const t of e.tokenIds) expect(Number.isInteger(t)).toBe(true);
    }
  }
}

describe('KV event decoder fuzzing', () => {
  it('round-trips both encodings', () => {
    fc.assert(
      fc.property(batch, fc.constantFrom('map' as const, 'array' as const), fc.boolean(), (b, encoding, mapBatch) => {
        const { batch: out, errors } = decodeKvEventBatch(encodeVllmEventBatch(b, { encoding, mapBatch }));
        expect(errors).toEqual([]);
        expect(out?.events.length).toBe(b.events.length);
        b.events.forEach((e, i) => {
          const d = out?.events[i];
          expect(d?.type).toBe(e.type);
          if (e.type === 'AllBlocksCleared' || d === undefined || d.type === 'AllBlocksCleared') return;
          expect(d.blockHashes.map(BigInt)).toEqual(e.blockHashes.map(BigInt));
          expect(d.medium).toBe(e.medium);
          if (e.type === 'BlockStored' && d.type === 'BlockStored') {
            expect(d.tokenIds).toEqual(e.tokenIds);
            expect(d.parentBlockHash === undefined ? undefined : BigInt(d.parentBlockHash)).toEqual(e.parentBlockHash === undefined ? undefined : BigInt(e.parentBlockHash));
          }
        });
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 256 }), (bytes) => {
        wellFormed(decodeKvEventBatch(bytes).batch);
      }),
      { numRuns: 2000 },
    );
  });

  it('never throws on truncated or bit-flipped valid payloads', () => {
    fc.assert(
      fc.property(batch, fc.nat(), fc.nat(), fc.integer({ min: 0, max: 255 }), (b, cut, at, xor) => {
        const bytes = encodeVllmEventBatch(b, { encoding: 'map' });
        wellFormed(decodeKvEventBatch(bytes.subarray(0, cut % (bytes.length + 1))).batch);
        const flipped = Uint8Array.from(bytes);
        const i = at % flipped.length;
        flipped[i] = (flipped[i] as number) ^ xor;
        wellFormed(decodeKvEventBatch(flipped).batch);
      }),
      { numRuns: 1000 },
    );
  });

  it('never throws on random msgpack values', () => {
    fc.assert(
      fc.property(fc.anything({ withBigInt: true, withNullPrototype: false, withTypedArray: false, withMap: false, withSet: false, withDate: false }), (value) => {
        let bytes: Uint8Array;
        try {
          bytes = packr.pack([0, [value, ['BlockStored', value, value, value, value, value, value]], value]);
        } catch {
          return;
        }
        wellFormed(decodeKvEventBatch(bytes).batch);
      }),
      { numRuns: 1000 },
    );
  });
});
