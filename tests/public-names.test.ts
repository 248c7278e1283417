/*
 * One meaning per name across packages (issue 17, item 3), and the public-name counts that
 * docs/architecture.md quotes (item 6). The listing comes from scripts/public-names.mjs, which
 * asks the TypeScript compiler what each root name of each package resolves to, types included.
 * A name exported by two packages passes only when both resolve to the same declaration (one
 * package re-exports the other's); at run time the two values must then be the same object.
 *
 * The counts table in docs/architecture.md is regenerated with
 * `UPDATE_PUBLIC_NAMES=1 npx vitest run tests/public-names.test.ts`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { countsTable, publicNames, type PackageNames } from '../scripts/public-names.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DOC = join(ROOT, 'docs', 'architecture.md');
const START = '<!-- public-names:start (scripts/public-names.mjs) -->';
const END = '<!-- public-names:end -->';

let listing: PackageNames[] = [];

beforeAll(() => {
  listing = publicNames(ROOT);
}, 10 * 60_000);

/** Every name that more than one package exports, with the packages and targets. */
function sharedNames(all: readonly PackageNames[]): Map<string, { package: string; kind: string; target: string }[]> {
  const byName = new Map<string, { package: string; kind: string; target: string }[]>();
  for (const p of all) {
    for (const n of p.names) {
      const list = byName.get(n.name) ?? [];
      list.push({ package: p.package, kind: n.kind, target: n.target });
      byName.set(n.name, list);
    }
  }
  for (const [name, list] of byName) if (list.length < 2) byName.delete(name);
  return byName;
}

describe('public names across packages', () => {
  it('lists every package root', () => {
    expect(listing.map((p) => p.package)).toContain('@switchyard/core');
    for (const p of listing) expect(p.names.length, p.package).toBeGreaterThan(0);
  });

  it('gives a name one meaning: two packages export it only as the same re-exported declaration', () => {
    const clashes: string[] = [];
    for (const [name, list] of sharedNames(listing)) {
      if (new Set(list.map((e) => e.target)).size > 1) {
        clashes.push(`${name}: ${list.map((e) => `${e.package} (${e.kind}, ${e.target})`).join(' vs ')}`);
      }
    }
    expect(clashes, 'rename one side, or re-export the other package’s declaration').toEqual([]);
  });

  it('shares the same object at run time for a value two packages export', async () => {
    const modules = new Map<string, Record<string, unknown>>();
    for (const p of listing) modules.set(p.package, (await import(p.package)) as Record<string, unknown>);
    const different: string[] = [];
    for (const [name, list] of sharedNames(listing)) {
      const values = list.filter((e) => e.kind !== 'type').map((e) => modules.get(e.package)?.[name]);
      if (values.some((v) => !Object.is(v, values[0]))) different.push(name);
    }
    expect(different).toEqual([]);
  }, 120_000);

  it('detects a clash (the check can fail)', () => {
    const fake: PackageNames[] = [
      { package: 'a', dir: 'a', names: [{ name: 'Same', kind: 'type', target: 'a.ts#Same' }, { name: 'Shared', kind: 'value', target: 'a.ts#Shared' }] },
      { package: 'b', dir: 'b', names: [{ name: 'Same', kind: 'type', target: 'b.ts#Same' }, { name: 'Shared', kind: 'value', target: 'a.ts#Shared' }] },
    ];
    const clashing = [...sharedNames(fake)].filter(([, list]) => new Set(list.map((e) => e.target)).size > 1).map(([n]) => n);
    expect(clashing).toEqual(['Same']);
  });
});

describe('docs/architecture.md', () => {
  it('quotes the current public-name counts of every package', () => {
    const doc = readFileSync(DOC, 'utf8');
    const start = doc.indexOf(START);
    const end = doc.indexOf(END);
    expect(start, `docs/architecture.md needs the ${START} marker`).toBeGreaterThan(-1);
    expect(end).toBeGreaterThan(start);
    const table = countsTable(listing);
    const current = doc.slice(start + START.length, end).trim();
    if (process.env['UPDATE_PUBLIC_NAMES'] === '1' && current !== table) {
      writeFileSync(DOC, `${doc.slice(0, start + START.length)}\n${table}\n${doc.slice(end)}`);
      return;
    }
    expect(current, 'regenerate with UPDATE_PUBLIC_NAMES=1 npx vitest run tests/public-names.test.ts').toBe(table);
  });
});
