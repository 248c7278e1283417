import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SwitchyardError, invalidOption, optionRules, resolveOptions, type OptionRules } from '@switchyard/core';

interface Defaults { readonly attempts: number; readonly mode: 'a' | 'b'; readonly on: boolean; readonly inner: { readonly ms: number } }
const DEFAULTS: Defaults = Object.freeze({ attempts: 3, mode: 'a', on: false, inner: Object.freeze({ ms: 1000 }) });
const RULES: OptionRules<Defaults> = {
  attempts: optionRules.integerAtLeast(1),
  mode: optionRules.oneOf(['a', 'b'] as const),
  on: optionRules.boolean,
  inner: optionRules.nested({ ms: 1000 }, { ms: optionRules.positiveNumber }),
};

const thrown = (f: () => unknown): SwitchyardError => {
  try {
    f();
  } catch (e) {
    if (e instanceof SwitchyardError) return e;
    throw e;
  }
  throw new Error('did not throw');
};

describe('resolveOptions', () => {
  it('fills every default, keeps given values and freezes the result', () => {
    const all = resolveOptions('x', undefined, DEFAULTS, RULES);
    expect(all).toEqual(DEFAULTS);
    expect(Object.isFrozen(all)).toBe(true);
    const some = resolveOptions('x', { attempts: 5, inner: { ms: 2 }, other: 'ignored' }, DEFAULTS, RULES);
    expect(some).toEqual({ attempts: 5, mode: 'a', on: false, inner: { ms: 2 } });
    expect(Object.isFrozen(some.inner)).toBe(true);
    expect('other' in some).toBe(false);
  });

  it('names the bad field, nested paths included, in the message and in `field`', () => {
    const zero = thrown(() => resolveOptions('gateway', { attempts: 0 }, DEFAULTS, RULES));
    expect(zero.code).toBe('CONFIG_INVALID');
    expect(zero.field).toBe('gateway.attempts');
    expect(zero.message).toBe('gateway.attempts: must be an integer ≥ 1, got 0');
    const nested = thrown(() => resolveOptions('gateway', { inner: { ms: -1 } }, DEFAULTS, RULES));
    expect(nested.field).toBe('gateway.inner.ms');
    expect(nested.message).toBe('gateway.inner.ms: must be a positive number, got -1');
    expect(thrown(() => resolveOptions('gateway', { mode: 'c' }, DEFAULTS, RULES)).message).toBe("gateway.mode: must be one of 'a', 'b', got \"c\"");
    expect(thrown(() => resolveOptions('gateway', { inner: 5 }, DEFAULTS, RULES)).message).toBe('gateway.inner: must be an object, got 5');
    expect(thrown(() => resolveOptions('gateway', 'text', DEFAULTS, RULES)).field).toBe('gateway');
  });

  it('never lets a value its rule rejects through, and never throws anything but a SwitchyardError', () => {
    fc.assert(
      fc.property(fc.record({ attempts: fc.anything(), mode: fc.anything(), on: fc.anything(), inner: fc.anything() }, { requiredKeys: [] }), (input) => {
        let out: Readonly<Defaults>;
        try {
          out = resolveOptions('p', input, DEFAULTS, RULES);
        } catch (e) {
          expect(e).toBeInstanceOf(SwitchyardError);
          expect((e as SwitchyardError).field?.startsWith('p')).toBe(true);
          return;
        }
        expect(Number.isInteger(out.attempts) && out.attempts >= 1).toBe(true);
        expect(['a', 'b']).toContain(out.mode);
        expect(typeof out.on).toBe('boolean');
        expect(out.inner.ms > 0 && Number.isFinite(out.inner.ms)).toBe(true);
      }),
    );
  });
});

describe('invalidOption', () => {
  it('renders values without leaking object contents', () => {
    expect(invalidOption('f', 'must be x', { password: 'secret' }).message).toBe('f: must be x, got an object');
    expect(invalidOption('f', 'must be x', [1, 2]).message).toBe('f: must be x, got an array of 2');
    expect(invalidOption('f', 'must be x', Number.NaN).message).toBe('f: must be x, got NaN');
  });
});
