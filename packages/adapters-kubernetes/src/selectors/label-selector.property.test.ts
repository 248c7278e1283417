import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isSwitchyardError } from '@switchyard/core';
import { formatLabelSelector, matchesLabels, parseLabelSelector, selectorFromMatchLabels, type LabelRequirement, type LabelSelector } from './label-selector.js';

// Small alphabets so generated labels often hit the generated requirements.
const name = fc.constantFrom('app', 'role', 'tier', 'llm-d.ai/role', 'kubernetes.io/hostname', 'a_b.c');
const value = fc.constantFrom('', 'vllm', 'prefill', 'decode', 'x.y-z', 'A1');
// `in ("")` alone has no text form (`in ()` is an empty set, which apimachinery rejects).
const someValues = fc.uniqueArray(value, { minLength: 1, maxLength: 3 }).filter((v) => v.join('') !== '');

const requirement: fc.Arbitrary<LabelRequirement> = fc.oneof(
  fc.record({ op: fc.constantFrom('=' as const, '!=' as const), key: name, value }),
  fc.record({ op: fc.constantFrom('in' as const, 'notin' as const), key: name, values: someValues }),
  fc.record({ op: fc.constantFrom('exists' as const, '!exists' as const), key: name }),
);
const selector: fc.Arbitrary<LabelSelector> = fc.array(requirement, { maxLength: 5 }).map((requirements) => ({ requirements }));
const labels = fc.dictionary(name, value, { maxKeys: 6 });

/**
 * The apimachinery semantics (`labels.Requirement.Matches`), written out independently of the
 * implementation: =, ==, in need the key present with a listed value; !=, notin hold when the key
 * is absent; exists / !exists test presence only; requirements are ANDed.
 */
function reference(sel: LabelSelector, l: Record<string, string>): boolean {
  return sel.requirements.every((r) => {
    const present = Object.keys(l).includes(r.key);
    const v = l[r.key];
    if (r.op === '=') return present && v === r.value;
    if (r.op === '!=') return !present || v !== r.value;
    if (r.op === 'in') return present && r.values.some((x) => x === v);
    if (r.op === 'notin') return !present || !r.values.some((x) => x === v);
    if (r.op === 'exists') return present;
    return !present;
  });
}

describe('label selectors (property tests)', () => {
  it('format then parse gives the same selector back', () => {
    fc.assert(fc.property(selector, (sel) => {
      expect(parseLabelSelector(formatLabelSelector(sel))).toEqual(sel);
    }));
  });

  it('matches exactly what apimachinery\'s requirement semantics say, for sets, existence and !=', () => {
    fc.assert(fc.property(selector, labels, (sel, l) => {
      expect(matchesLabels(sel, l)).toBe(reference(sel, l));
    }), { numRuns: 2000 });
  });

  it('spacing and == do not change the meaning', () => {
    const spaced = (r: LabelRequirement): string => {
      switch (r.op) {
        case '=': return `${r.key} == ${r.value}`;
        case '!=': return `${r.key} != ${r.value}`;
        case 'in': case 'notin': return `${r.key}  ${r.op}(${r.values.join(' , ')})`;
        case 'exists': return ` ${r.key} `;
        case '!exists': return `! ${r.key}`;
      }
    };
    fc.assert(fc.property(selector.filter((s) => s.requirements.length > 0), labels, (sel, l) => {
      const parsed = parseLabelSelector(sel.requirements.map(spaced).join(' , '));
      expect(matchesLabels(parsed, l)).toBe(reference(sel, l));
    }));
  });

  it('a matchLabels selector holds iff the labels contain every pair (InferencePool semantics)', () => {
    fc.assert(fc.property(labels, labels, (want, l) => {
      const contained = Object.entries(want).every(([k, v]) => Object.keys(l).includes(k) && l[k] === v);
      expect(matchesLabels(selectorFromMatchLabels(want), l)).toBe(contained);
    }));
  });

  it('notin is the negation of in, and != of =, on labels that have the key', () => {
    fc.assert(fc.property(name, someValues, value, (key, values, v) => {
      const l = { [key]: v };
      expect(matchesLabels({ requirements: [{ op: 'notin', key, values }] }, l)).toBe(!matchesLabels({ requirements: [{ op: 'in', key, values }] }, l));
      expect(matchesLabels({ requirements: [{ op: '!=', key, value: values[0] ?? '' }] }, l)).toBe(!matchesLabels({ requirements: [{ op: '=', key, value: values[0] ?? '' }] }, l));
    }));
  });

  it('any text either parses or is rejected with a CONFIG_INVALID naming the flag; it never crashes', () => {
    const pieces = fc.constantFrom('a', 'b', '=', '==', '!=', '!', ',', ' ', '(', ')', 'in', 'notin', 'x/y', '-', '.', '_', '>', '🙂', '\n');
    fc.assert(fc.property(fc.oneof(fc.string(), fc.array(pieces, { maxLength: 12 }).map((p) => p.join(''))), (text) => {
      try {
        const sel = parseLabelSelector(text, '--endpoint-selector');
        // Whatever parses, formats to text that parses to the same thing.
        expect(parseLabelSelector(formatLabelSelector(sel))).toEqual(sel);
      } catch (err) {
        expect(isSwitchyardError(err) && err.code === 'CONFIG_INVALID' && err.message.startsWith('--endpoint-selector: ')).toBe(true);
      }
    }), { numRuns: 3000 });
  });

  it('rejects what apimachinery rejects', () => {
    for (const bad of ['a in ()', 'a notin ()', ',', 'a,,b', 'a=b=c', '-a=b', 'a=-b', `${'k'.repeat(64)}=v`, `k=${'v'.repeat(64)}`, 'Foo.example/x=y', 'a in (x', '!', '=b']) {
      expect(() => parseLabelSelector(bad, 'sel'), bad).toThrow(/^sel: invalid label selector/);
    }
  });
});
