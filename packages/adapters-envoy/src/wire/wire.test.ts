import { bodyChunkResponses, headerMapToRecord, readAddressList, setHeader, structToJson, STREAMED_BODY_CHUNK_BYTES } from './index.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

describe('bodyChunkResponses', () => {
  it('splits any body into chunks that reassemble it, each ≤ the limit, eos only on the last', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 5000 }), fc.integer({ min: 1, max: 700 }), fc.boolean(), (body, size, eos) => {
        const replies = bodyChunkResponses('request', body, eos, size);
        const chunks = replies.map((r) => r.request_body!.response.body_mutation!.streamed_response);
        expect(Buffer.concat(chunks.map((c) => c.body))).toEqual(Buffer.from(body));
        for (const c of chunks) expect(c.body.length).toBeLessThanOrEqual(size);
        chunks.forEach((c, i) => {
          expect(c.end_of_stream).toBe(eos && i === chunks.length - 1);
        });
        if (body.length === 0) expect(chunks.length).toBe(eos ? 1 : 0);
        else expect(chunks.every((c) => c.body.length > 0)).toBe(true);
      }),
    );
  });

  it('defaults to 62,000-byte chunks', () => {
    const replies = bodyChunkResponses('response', new Uint8Array(124_001), true);
    expect(replies.map((r) => r.response_body!.response.body_mutation!.streamed_response.body.length)).toEqual([62_000, 62_000, 1]);
    expect(STREAMED_BODY_CHUNK_BYTES).toBe(62_000);
  });
});

describe('headers', () => {
  it('reads raw_value first, then value, lower-cases names and joins repeats', () => {
    const record = headerMapToRecord({
      headers: [
        { key: 'Content-Type', raw_value: Buffer.from('application/json') },
        { key: 'x-old', value: 'v' },
        { key: 'accept', raw_value: Buffer.from('a') },
        { key: 'accept', raw_value: Buffer.from('b') },
      ],
    });
    expect(record).toEqual({ 'content-type': 'application/json', 'x-old': 'v', accept: 'a,b' });
  });

  it('round-trips any header value through raw_value', () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        const option = setHeader('x-k', value);
        expect(headerMapToRecord({ headers: [option.header] })['x-k']).toBe(value);
        expect('value' in option.header).toBe(false);
      }),
    );
  });
});

describe('structs', () => {
  it('reads a list hint, a comma-joined hint, an empty list and an absent key', () => {
    const list = { fields: { k: { listValue: { values: [{ stringValue: '1.1.1.1:80' }, { stringValue: ' 2.2.2.2:80 ' }] } } } };
    expect(readAddressList(list, 'k')).toEqual(['1.1.1.1:80', '2.2.2.2:80']);
    expect(readAddressList({ fields: { k: { stringValue: '1.1.1.1:80,2.2.2.2:80' } } }, 'k')).toEqual(['1.1.1.1:80', '2.2.2.2:80']);
    expect(readAddressList({ fields: { k: { listValue: {} } } }, 'k')).toEqual([]);
    expect(readAddressList({ fields: {} }, 'k')).toBeUndefined();
    expect(readAddressList(undefined, 'k')).toBeUndefined();
  });

  it('converts nested structs to plain JSON', () => {
    const struct = { fields: { a: { numberValue: 1 }, b: { structValue: { fields: { c: { boolValue: true } } } }, d: { listValue: { values: [{ stringValue: 'x' }, { nullValue: 0 }] } } } };
    expect(structToJson(struct)).toEqual({ a: 1, b: { c: true }, d: ['x', null] });
  });
});
