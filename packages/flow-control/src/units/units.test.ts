import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { durationOrError } from '@switchyard/core';
import { formatDuration, parseQuantity } from '@switchyard/flow-control';

/** Core's duration parser, throwing its message: the one every flow-control duration field uses. */
function parseDuration(value: string | number): number {
  const ms = durationOrError(value);
  if (typeof ms === 'string') throw new Error(ms);
  return ms;
}

const SCALE = { '': 1, k: 1e3, M: 1e6, G: 1e9, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4 } as const;

describe('parseQuantity', () => {
  it('reads the examples of the llm-d flow-control guide', () => {
    expect(parseQuantity('1k')).toBe(1000);
    expect(parseQuantity('10Gi')).toBe(10 * 2 ** 30);
    expect(parseQuantity('500')).toBe(500);
    expect(parseQuantity(500)).toBe(500);
    expect(parseQuantity('1.5M')).toBe(1_500_000);
    expect(parseQuantity('1.1k')).toBe(1100);
    expect(parseQuantity('2e3')).toBe(2000);
    expect(parseQuantity('1500m')).toBe(2);
    expect(parseQuantity('0')).toBe(0);
  });
  it('rejects malformed and negative quantities with a message that quotes the input', () => {
    for (const bad of ['', 'k', '1kb', '-5', '1 Gi', '1e999', 'ten']) {
      expect(() => parseQuantity(bad)).toThrow(/quantity/);
    }
    expect(() => parseQuantity(-1)).toThrow(/non-negative/);
    expect(() => parseQuantity(Number.NaN)).toThrow();
  });
  it('scales every integer by its suffix (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4000 }), fc.constantFrom(...(Object.keys(SCALE) as (keyof typeof SCALE)[])), (n, suffix) => {
        expect(parseQuantity(`${n}${suffix}`)).toBe(n * SCALE[suffix]);
      }),
    );
  });
  it('rounds fractions up and never below the exact value (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 999 }), (whole, frac) => {
        const text = `${whole}.${String(frac).padStart(3, '0')}`;
        const exact = whole + frac / 1000;
        expect(parseQuantity(text)).toBe(frac === 0 ? whole : Math.floor(exact) + 1);
        expect(parseQuantity(`${text}k`)).toBe(whole * 1000 + frac);
      }),
    );
  });
});

describe('durations (core durationOrError, formatDuration)', () => {
  it('reads Go-style durations into milliseconds', () => {
    expect(parseDuration('60s')).toBe(60_000);
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('2m')).toBe(120_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('1.5s')).toBe(1500);
    expect(parseDuration('250us')).toBe(0.25);
    expect(parseDuration('0')).toBe(0);
    expect(parseDuration('0s')).toBe(0);
    expect(parseDuration(750)).toBe(750);
  });
  it('rejects malformed durations', () => {
    for (const bad of ['', '10', '5 s', '-1s', '1d', 's', '1s2']) {
      expect(() => parseDuration(bad)).toThrow(/duration/);
    }
    expect(() => parseDuration(-5)).toThrow();
  });
  it('round-trips through formatDuration (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 * 24 * 3_600_000 }), (ms) => {
        expect(parseDuration(formatDuration(ms))).toBe(ms);
      }),
    );
  });
  it('adds the parts of a compound duration (property)', () => {
    fc.assert(
      fc.property(fc.nat(99), fc.nat(59), fc.nat(59), fc.nat(999), (h, m, s, ms) => {
        expect(parseDuration(`${h}h${m}m${s}s${ms}ms`)).toBe(((h * 60 + m) * 60 + s) * 1000 + ms);
      }),
    );
  });
});
