/*
 * The one KV-event encoder against the decoder: whatever batch goes in comes back out, and the
 * bytes keep vLLM's (msgspec's) number formats: ts a float64, hashes integers at every size.
 */
import fc from 'fast-check';
import { Unpackr } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { decodeKvEventBatch, encodeVllmEventBatch, type EngineBlockHash, type KvEvent, type KvEventBatch } from '@switchyard/prefix-index';

const hash: fc.Arbitrary<EngineBlockHash> = fc.oneof(
  fc.integer({ min: 0, max: 0xffffffff }),
  fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
);
const medium = fc.constantFrom('gpu', 'cpu', 'disk');
const optional = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(a, { nil: undefined });
const event: fc.Arbitrary<KvEvent> = fc.oneof(
  fc.record({
    type: fc.constant('BlockStored' as const),
    blockHashes: fc.array(hash, { maxLength: 4 }),
    parentBlockHash: optional(hash),
    tokenIds: fc.array(fc.integer({ min: 0, max: 0xffffffff }), { maxLength: 16 }),
    blockSize: fc.integer({ min: 1, max: 64 }),
    loraId: optional(fc.nat(100)),
    medium,
    loraName: optional(fc.string({ maxLength: 8 })),
    groupIdx: optional(fc.nat(3)),
  }),
  fc.record({ type: fc.constant('BlockRemoved' as const), blockHashes: fc.array(hash, { maxLength: 4 }), medium, groupIdx: optional(fc.nat(3)) }),
  fc.constant({ type: 'AllBlocksCleared' as const }),
);
const batch: fc.Arbitrary<KvEventBatch> = fc.record({
  ts: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.nat(2_000_000_000)),
  events: fc.array(event, { maxLength: 6 }),
  dataParallelRank: optional(fc.nat(8)),
});

/** The decoder's form of a hash: a number when it is a safe integer, else a bigint. */
const decodedHash = (h: EngineBlockHash): EngineBlockHash => (typeof h === 'bigint' && h <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(h) : h);

/** What decoding the encoded batch must give back: the same batch with hashes in decoded form. */
function expected(b: KvEventBatch): KvEventBatch {
  const events = b.events.map((e): KvEvent => {
    if (e.type === 'AllBlocksCleared') return e;
    const blockHashes = e.blockHashes.map(decodedHash);
    if (e.type === 'BlockRemoved') return { ...e, blockHashes };
    return { ...e, blockHashes, parentBlockHash: e.parentBlockHash === undefined ? undefined : decodedHash(e.parentBlockHash) };
  });
  return { ...b, events };
}

const bigintUnpackr = new Unpackr({ useRecords: false, mapsAsObjects: true, int64AsType: 'bigint' });

describe('encodeVllmEventBatch round trip', () => {
  it('decodes to the batch it encoded, for any batch, in every layout', () => {
    fc.assert(
      fc.property(batch, fc.constantFrom('map' as const, 'array' as const), fc.boolean(), (b, encoding, mapBatch) => {
        const { batch: out, errors } = decodeKvEventBatch(encodeVllmEventBatch(b, { encoding, mapBatch }));
        expect(errors).toEqual([]);
        expect(out).toEqual(expected(b));
      }),
      { numRuns: 300 },
    );
  });

  it('writes ts as a float64 and every hash above 32 bits as a 64-bit integer, never a float', () => {
    fc.assert(
      fc.property(batch, fc.constantFrom('map' as const, 'array' as const), (b, encoding) => {
        const bytes = encodeVllmEventBatch(b, { encoding });
        expect(bytes[1]).toBe(0xcb);
        const [, events] = bigintUnpackr.unpack(bytes) as [unknown, unknown[]];
        events.forEach((raw, i) => {
          const e = b.events[i];
          if (e === undefined || e.type === 'AllBlocksCleared') return;
          const wire = (encoding === 'map' ? (raw as Record<string, unknown>)['block_hashes'] : (raw as unknown[])[1]) as unknown[];
          wire.forEach((h, j) => {
            const given = BigInt(e.blockHashes[j] ?? 0);
            expect(typeof h, `hash ${given}`).toBe(given > 0xffffffffn ? 'bigint' : 'number');
            expect(BigInt(h as number | bigint)).toBe(given);
          });
        });
      }),
      { numRuns: 200 },
    );
  });
});
