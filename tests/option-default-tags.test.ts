/*
 * Each options type's defaults are stated once, in its `*_DEFAULTS` constant; the TSDoc of every
 * defaulted option carries the same value in a `@defaultValue` tag (what the API reference shows).
 * This test reads the tags from the sources and compares them with the constants both ways, so the
 * prose of the API and the code cannot drift.
 */
import { describe, expect, it } from 'vitest';
import { OPTION_TYPES, defaultValueTags, parseDefaultLiteral, type OptionType } from './support/option-types.js';

/** [path, tag text or undefined, constant value] for every key of a constant, nested types walked. */
function compare(type: OptionType): { missing: string[]; unknown: string[]; pairs: [string, unknown, unknown][] } {
  const missing: string[] = [];
  const unknown: string[] = [];
  const pairs: [string, unknown, unknown][] = [];
  const walk = (where: string, defaults: object, prefix: string): void => {
    const [file, interfaceName] = where.includes('#') ? (where.split('#') as [string, string]) : [type.file, where];
    const tags = defaultValueTags(file, interfaceName);
    for (const key of tags.keys()) if (!(key in defaults)) unknown.push(`${prefix}${key}`);
    for (const [key, value] of Object.entries(defaults)) {
      const nested = prefix === '' ? type.nested?.[key] : undefined;
      if (nested !== undefined) {
        walk(nested, value as object, `${key}.`);
        continue;
      }
      const tag = tags.get(key);
      if (tag === undefined) missing.push(`${prefix}${key}`);
      else pairs.push([`${prefix}${key}`, parseDefaultLiteral(tag), value]);
    }
  };
  walk(type.interfaceName, type.defaults, '');
  return { missing, unknown, pairs };
}

describe('@defaultValue tags against the *_DEFAULTS constants', () => {
  it.each(OPTION_TYPES.map((t) => [t.name, t] as const))('%s', (_name, type) => {
    const { missing, unknown, pairs } = compare(type);
    expect(missing, `${type.interfaceName}: options with a default but no @defaultValue tag`).toEqual([]);
    expect(unknown, `${type.interfaceName}: @defaultValue tags on options the constant does not default`).toEqual([]);
    expect(pairs.length).toBeGreaterThan(0);
    for (const [path, tagged, value] of pairs) expect(tagged, `${type.interfaceName}.${path}`).toEqual(value);
  });

  it('reads literals and refuses prose', () => {
    expect(parseDefaultLiteral('300_000')).toBe(300000);
    expect(parseDefaultLiteral("'FailClose'")).toBe('FailClose');
    expect(parseDefaultLiteral('false')).toBe(false);
    expect(() => parseDefaultLiteral('16 MiB')).toThrow(/not a default literal/);
  });
});
