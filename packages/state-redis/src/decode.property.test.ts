import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeEvents, decodePeers, decodeSnapshot, encodeRecords } from './decode.js';

const json = fc.jsonValue();
const record = fc.record({ channel: fc.string({ minLength: 1 }), data: json });

describe('decoding what the store holds (property)', () => {
  it('never throws on arbitrary replies, whatever a foreign writer left in the keys', () => {
    const reply = fc.oneof(fc.anything(), fc.array(fc.oneof(fc.string(), fc.anything())), fc.array(fc.tuple(fc.string(), fc.array(fc.oneof(fc.string(), fc.anything())))));
    fc.assert(
      fc.property(reply, (r) => {
        decodePeers(r, 'me', 0, 60_000);
        decodeEvents([[ 'k', r ]], 'me');
        decodeEvents(r, 'me');
        decodeSnapshot(r);
      }),
    );
  });

  it('records written by one replica come back to another exactly, in order, and never to the writer', () => {
    fc.assert(
      fc.property(fc.array(fc.array(record, { minLength: 1, maxLength: 5 }), { maxLength: 6 }), fc.constantFrom('a', 'b'), (batches, writer) => {
        const entries = batches.map((b, i) => [`${i + 1}-0`, ['r', writer, 'd', encodeRecords(b)]]);
        const other = decodeEvents([['events', entries]], writer === 'a' ? 'b' : 'a');
        expect(other.records.map(({ channel, data }) => ({ channel, data }))).toEqual(JSON.parse(JSON.stringify(batches.flat())));
        expect(other.records.every((r) => r.replicaId === writer)).toBe(true);
        expect(other.lastId).toBe(entries.length === 0 ? undefined : `${entries.length}-0`);
        expect(decodeEvents([['events', entries]], writer).records).toEqual([]);
      }),
    );
  });

  it('peers: own field skipped, stale and unreadable fields listed for deletion', () => {
    const snap = (t: number) => JSON.stringify({ s: 3, t, l: { default: { e1: [1, 2] } } });
    const { peers, stale } = decodePeers(['me', snap(100), 'p1', snap(100), 'old', snap(0), 'junk', '{'], 'me', 100, 50);
    expect(peers).toEqual([{ replicaId: 'p1', seq: 3, load: { default: { e1: [1, 2] } } }]);
    expect(stale.sort()).toEqual(['junk', 'old']);
  });
});
