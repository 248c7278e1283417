import { Packr } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { decodeKvEventBatch, encodeVllmEventBatch, engineHashHandle, type KvEventBatch } from '@switchyard/prefix-index';

const packr = new Packr({ useRecords: false, variableMapSize: true });
const hex = (s: string): Buffer => Buffer.from(s.replace(/\s+/g, ''), 'hex');
const str = (s: string): string => Buffer.from(s).toString('hex');
const fixstr = (s: string): string => (0xa0 + s.length).toString(16) + str(s);

/** The reference's batch: [1.5, [BlockStored, BlockRemoved, AllBlocksCleared], rank 0]. */
const referenceBatch: KvEventBatch = {
  ts: 1.5,
  events: [
    { type: 'BlockStored', blockHashes: [7], parentBlockHash: undefined, tokenIds: [1, 2], blockSize: 2, medium: 'gpu', extraKeys: [null], groupIdx: 0 },
    { type: 'BlockRemoved', blockHashes: [7], medium: 'gpu', groupIdx: 0 },
    { type: 'AllBlocksCleared' },
  ],
  dataParallelRank: 0,
};

const legacyBytes =
  '93 cb3ff8000000000000 93' +
  `9a ${fixstr('BlockStored')} 91 07 c0 92 01 02 02 c0 ${fixstr('GPU')} c0 91 c0 00` +
  `94 ${fixstr('BlockRemoved')} 91 07 ${fixstr('GPU')} 00` +
  `91 ${fixstr('AllBlocksCleared')}` +
  '00';

describe('decodeKvEventBatch', () => {
  it('decodes the legacy positional encoding byte for byte, and the encoder reproduces it', () => {
    const bytes = hex(legacyBytes);
    const { batch, errors } = decodeKvEventBatch(bytes);
    expect(errors).toEqual([]);
    expect(batch?.ts).toBe(1.5);
    expect(batch?.dataParallelRank).toBe(0);
    expect(batch?.events).toMatchObject([
      { type: 'BlockStored', blockHashes: [7], parentBlockHash: undefined, tokenIds: [1, 2], blockSize: 2, medium: 'gpu', groupIdx: 0 },
      { type: 'BlockRemoved', blockHashes: [7], medium: 'gpu', groupIdx: 0 },
      { type: 'AllBlocksCleared' },
    ]);
    expect(Buffer.from(encodeVllmEventBatch(referenceBatch, { encoding: 'array' })).toString('hex')).toBe(bytes.toString('hex'));
  });

  it('decodes the map encoding, whose prefix matches the reference bytes', () => {
    const bytes = encodeVllmEventBatch(referenceBatch, { encoding: 'map' });
    const prefix =
      `93 cb3ff8000000000000 93 8a ${fixstr('type')} ${fixstr('BlockStored')} ${fixstr('block_hashes')} 91 07 ` +
      `${fixstr('parent_block_hash')} c0 ${fixstr('token_ids')} 92 01 02 ${fixstr('block_size')} 02 ${fixstr('lora_id')} c0 ` +
      `${fixstr('medium')} ${fixstr('GPU')} ${fixstr('lora_name')} c0 ${fixstr('extra_keys')} 91 c0 ${fixstr('group_idx')} 00`;
    expect(Buffer.from(bytes).toString('hex').startsWith(hex(prefix).toString('hex'))).toBe(true);
    const { batch, errors } = decodeKvEventBatch(bytes);
    expect(errors).toEqual([]);
    expect(batch?.events).toMatchObject(referenceBatch.events);
  });

  it('accepts old two-element batches and map batches', () => {
    const old = decodeKvEventBatch(packr.pack([2, [['AllBlocksCleared']]]));
    expect(old.batch).toEqual({ ts: 2, events: [{ type: 'AllBlocksCleared' }], dataParallelRank: undefined });
    const map = decodeKvEventBatch(encodeVllmEventBatch({ ts: 3, events: [{ type: 'AllBlocksCleared' }], dataParallelRank: 2 }, { encoding: 'map', mapBatch: true }));
    expect(map.batch).toEqual({ ts: 3, events: [{ type: 'AllBlocksCleared' }], dataParallelRank: 2 });
  });

  it('reads hashes as uint64, int64 and bytes (last 8 bytes big-endian)', () => {
    const digest = Buffer.alloc(32, 0xaa);
    digest.writeBigUInt64BE(12687895063098490012n, 24);
    const payload = packr.pack([0, [['BlockRemoved', [2n ** 64n - 1n, -5, 5n, digest], 'CPU']]]);
    const { batch, errors } = decodeKvEventBatch(payload);
    expect(errors).toEqual([]);
    const ev = batch?.events[0];
    expect(ev?.type).toBe('BlockRemoved');
    if (ev?.type !== 'BlockRemoved') return;
    expect(ev.medium).toBe('cpu');
    expect(ev.blockHashes).toEqual([2n ** 64n - 1n, -5, 5, 12687895063098490012n]);
    // The same 64-bit value seen signed and unsigned gets the same handle.
    expect(engineHashHandle(-5)).toBe(engineHashHandle(2n ** 64n - 5n));
    expect(engineHashHandle(5)).toBe(engineHashHandle(5n));
  });

  it('ignores unknown map keys and extra trailing elements', () => {
    const payload = packr.pack([
      0,
      [
        { type: 'BlockStored', block_hashes: [1], parent_block_hash: null, token_ids: [1], block_size: 1, lora_id: null, medium: null, lora_name: 'ad', future: { x: 1 } },
        ['BlockRemoved', [1], 'GPU', 0, 'later', 'fields'],
      ],
      0,
      'extra',
    ]);
    const { batch, errors } = decodeKvEventBatch(payload);
    expect(errors).toEqual([]);
    expect(batch?.events).toMatchObject([{ type: 'BlockStored', loraName: 'ad', medium: 'gpu' }, { type: 'BlockRemoved' }]);
  });

  it('skips unknown event types and bad events but keeps the rest', () => {
    const payload = packr.pack([
      0,
      [['Mystery', 1], 42, ['BlockStored', ['x'], null, [1], 1], ['BlockStored', [1], null, [1], 0], ['AllBlocksCleared']],
    ]);
    const { batch, errors } = decodeKvEventBatch(payload);
    expect(batch?.events).toEqual([{ type: 'AllBlocksCleared' }]);
    expect(errors.map((e) => e.cause)).toEqual(['unknown-event-type', 'bad-event', 'bad-field', 'bad-field']);
    expect(errors[2]?.message).toContain('block_hashes[0]');
    expect(errors[3]?.message).toContain('block_size');
  });

  it('reports malformed and truncated payloads without throwing', () => {
    const good = encodeVllmEventBatch(referenceBatch, { encoding: 'array' });
    expect(decodeKvEventBatch(good.subarray(0, 5))).toMatchObject({ batch: undefined, errors: [{ cause: 'malformed-msgpack' }] });
    expect(decodeKvEventBatch(packr.pack('hello'))).toMatchObject({ batch: undefined, errors: [{ cause: 'bad-batch' }] });
    expect(decodeKvEventBatch(packr.pack([1, 'x']))).toMatchObject({ batch: undefined, errors: [{ cause: 'bad-batch' }] });
    expect(decodeKvEventBatch(new Uint8Array(0)).batch).toBeUndefined();
  });

  it('reads SGLang positional events with the sglang dialect', () => {
    const payload = packr.pack([0, [['BlockStored', [-9], null, [1, 2], 2, null, 'GPU', 'salty', 'session-1']], 1]);
    const { batch, errors } = decodeKvEventBatch(payload, { dialect: 'sglang' });
    expect(errors).toEqual([]);
    expect(batch?.events[0]).toMatchObject({ type: 'BlockStored', blockHashes: [-9], cacheSalt: 'salty', loraName: undefined });
  });
});
