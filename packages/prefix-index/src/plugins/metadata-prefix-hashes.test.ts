import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Attributes, ROUTING_METADATA_NAMESPACE, type RequestMetadata } from '@switchyard/core';
import { cycleContext, poolOf, resultOf, schedulingRequest } from '@switchyard/core/testing';
import { ApproximatePrefixProducer, canonicalUint64, createPrefixHasher, readPrefixHashes, Uint64KeyInterner, type PrefixIndexLogger } from '@switchyard/prefix-index';

const U64_MAX = (1n << 64n) - 1n;
const u64 = fc.bigInt({ min: 0n, max: U64_MAX });
const routing = (hashes: unknown): RequestMetadata => ({ [ROUTING_METADATA_NAMESPACE]: { prefix_hashes: hashes } });

describe('canonicalUint64', () => {
  it('reads every uint64 back exactly, with or without leading zeros', () => {
    fc.assert(
      fc.property(u64, fc.nat({ max: 5 }), (n, zeros) => {
        expect(canonicalUint64('0'.repeat(zeros) + n.toString())).toBe(n.toString());
      }),
    );
  });

  it('rejects values past 2^64 - 1, signs, fractions, exponents and non-digits', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: U64_MAX + 1n, max: U64_MAX * 1000n }), (n) => {
        expect(canonicalUint64(n.toString())).toBeUndefined();
      }),
    );
    for (const bad of ['', '-1', '+1', '1.5', '1e3', ' 1', '0x10', '18446744073709551616', 'abc']) expect(canonicalUint64(bad), bad).toBeUndefined();
    fc.assert(
      fc.property(fc.string(), (s) => {
        const r = canonicalUint64(s);
        // Whatever it accepts is a canonical decimal uint64 equal to the input's value.
        if (r !== undefined) {
          expect(/^(0|[1-9]\d*)$/.test(r)).toBe(true);
          expect(BigInt(r)).toBe(BigInt(s));
          expect(BigInt(r) <= U64_MAX).toBe(true);
        }
      }),
    );
  });

  it('accepts JSON numbers only while they are exact (safe integers)', () => {
    expect(canonicalUint64(42)).toBe('42');
    expect(canonicalUint64(2 ** 53)).toBeUndefined();
    expect(canonicalUint64(-1)).toBeUndefined();
    expect(canonicalUint64(1.5)).toBeUndefined();
  });
});

describe('readPrefixHashes', () => {
  it('reads a list of decimal strings, and a comma-separated string the same way', () => {
    fc.assert(
      fc.property(fc.array(u64, { maxLength: 20 }), (hashes) => {
        const strings = hashes.map((h) => h.toString());
        expect(readPrefixHashes(routing(strings))).toEqual({ kind: 'hashes', hashes: strings });
        expect(readPrefixHashes(routing(strings.join(', ')))).toEqual({ kind: 'hashes', hashes: strings });
      }),
    );
  });

  it('is absent without the namespace or the field, and names the bad field otherwise', () => {
    expect(readPrefixHashes(undefined)).toEqual({ kind: 'absent' });
    expect(readPrefixHashes({ other: {} })).toEqual({ kind: 'absent' });
    expect(readPrefixHashes({ [ROUTING_METADATA_NAMESPACE]: {} })).toEqual({ kind: 'absent' });
    expect(readPrefixHashes(routing(['1', 'x', '3']))).toEqual({ kind: 'invalid', error: 'llm-d.routing.prefix_hashes[1]: not a decimal uint64 ("x")' });
    expect(readPrefixHashes(routing({ a: 1 }))).toEqual({ kind: 'invalid', error: 'llm-d.routing.prefix_hashes: expected a list of decimal uint64 strings, got object' });
  });

  it('never throws, whatever the metadata holds', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(['hashes', 'absent', 'invalid']).toContain(readPrefixHashes(routing(v)).kind);
      }),
    );
  });
});

describe('Uint64KeyInterner', () => {
  it('gives distinct uint64 hashes distinct keys, including hashes equal modulo 2^53', () => {
    fc.assert(
      fc.property(fc.array(u64, { minLength: 1, maxLength: 200 }), (hashes) => {
        const interner = new Uint64KeyInterner(1000);
        const keyOf = new Map<string, number>();
        for (const h of hashes) {
          const k = interner.keyOf(h.toString());
          expect(Number.isSafeInteger(k)).toBe(true);
          const seen = keyOf.get(h.toString());
          if (seen !== undefined) expect(k).toBe(seen);
          keyOf.set(h.toString(), k);
        }
        expect(new Set(keyOf.values()).size).toBe(keyOf.size);
      }),
    );
    // 2^53 + 1 and 1 agree in their low 53 bits, and doubles cannot tell 2^53 + 1 from 2^53.
    const i = new Uint64KeyInterner(10);
    const keys = [String(2n ** 53n + 1n), '1', String(2n ** 53n)].map((h) => i.keyOf(h));
    expect(new Set(keys).size).toBe(3);
  });

  it('forgets the least recently seen hash past its capacity, and never reuses its key', () => {
    const i = new Uint64KeyInterner(2);
    const a = i.keyOf('10');
    const b = i.keyOf('20');
    expect(i.keyOf('10')).toBe(a); // 10 is now the most recent
    const c = i.keyOf('30'); // evicts 20
    expect(i.size).toBe(2);
    expect(i.peek('20')).toBeUndefined();
    const b2 = i.keyOf('20');
    expect(new Set([a, b, c, b2]).size).toBe(4);
  });
});

describe('approx-prefix-cache-producer with prefixHashSource: metadata', () => {
  const warnings: string[] = [];
  const logger: PrefixIndexLogger = { info: () => undefined, warn: (m: string) => { warnings.push(m); } };

  const request = (metadata: RequestMetadata | undefined) => {
    const r = schedulingRequest({ request: { prompt: { kind: 'text', texts: ['the prompt is not what is hashed'] } } });
    if (metadata !== undefined) r.attributes.set(Attributes.requestMetadata, metadata);
    return r;
  };

  it('matches the metadata chain against what earlier decisions taught it, by uint64 value', () => {
    const pool = poolOf(['pod1', 'pod2']);
    const pod1 = pool.list()[0]!;
    const p = new ApproximatePrefixProducer({ hasher: createPrefixHasher(), pool, prefixHashSource: 'metadata', logger });
    const big = (2n ** 64n - 5n).toString();
    const first = request(routing([big, '7', '8']));
    p.produce(cycleContext(), first, pool.list());
    expect(first.attributes.get(Attributes.prefixMatch)?.get('pod1')).toMatchObject({ matchBlocks: 0, totalBlocks: 3 });
    p.preRequest(cycleContext(), first, resultOf(pod1));

    // Same first two hashes (the first past 2^53), then a different one.
    const second = request(routing([big, '0007', '9']));
    p.produce(cycleContext(), second, pool.list());
    expect(second.attributes.get(Attributes.prefixMatch)?.get('pod1')).toMatchObject({ matchBlocks: 2, totalBlocks: 3 });
    expect(second.attributes.get(Attributes.prefixMatch)?.get('pod2')).toMatchObject({ matchBlocks: 0 });

    // A hash that differs from the learnt one only above bit 53 does not match.
    const third = request(routing([(2n ** 64n - 5n - 2n ** 60n).toString()]));
    p.produce(cycleContext(), third, pool.list());
    expect(third.attributes.get(Attributes.prefixMatch)?.get('pod1')).toMatchObject({ matchBlocks: 0, totalBlocks: 1 });
  });

  it('caps the chain at maxPrefixBlocksToMatch when maxPrefixTokensToMatch is 0', () => {
    const pool = poolOf(['pod1']);
    const p = new ApproximatePrefixProducer({ hasher: createPrefixHasher(), pool, prefixHashSource: 'metadata', maxPrefixTokensToMatch: 0, maxPrefixBlocksToMatch: 2, logger });
    const r = request(routing(['1', '2', '3', '4']));
    p.produce(cycleContext(), r, pool.list());
    expect(r.attributes.get(Attributes.prefixMatch)?.get('pod1')?.totalBlocks).toBe(2);
  });

  it('gives requests without (or with malformed) hashes an empty match and logs each case once, naming the field', () => {
    warnings.length = 0;
    const pool = poolOf(['pod1']);
    const p = new ApproximatePrefixProducer({ hasher: createPrefixHasher(), pool, prefixHashSource: 'metadata', logger });
    for (const md of [undefined, undefined, routing(['1', '-2']), routing(['x'])]) {
      const r = request(md);
      p.produce(cycleContext(), r, pool.list());
      expect(r.attributes.get(Attributes.prefixMatch)?.get('pod1')).toMatchObject({ matchBlocks: 0, totalBlocks: 0 });
      p.preRequest(cycleContext(), r, resultOf(pool.list()[0]!));
    }
    expect(p.index.size).toBe(0);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('llm-d.routing.prefix_hashes');
    expect(warnings[1]).toContain('llm-d.routing.prefix_hashes[1]');
  });
});
