import { describe, expect, it } from 'vitest';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { workspaceRoots } from '../scripts/public-names.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Packages whose few root names read fine as one flat list in the API reference. */
const FLAT = new Set(['@switchyard/redis']);

/** Root exports whose declaration carries no `@category` tag, as `package: name (file)`. */
function uncategorised(): string[] {
  const roots = workspaceRoots(ROOT).filter((r) => !FLAT.has(r.name));
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (config === undefined) throw new Error('cannot read tsconfig.json');
  const program = ts.createProgram({ rootNames: roots.map((r) => r.entry), options: { ...config.options, noEmit: true } });
  const checker = program.getTypeChecker();
  const missing: string[] = [];
  for (const r of roots) {
    const source = program.getSourceFile(r.entry);
    const moduleSymbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (moduleSymbol === undefined) throw new Error(`${r.name}: no module at ${r.entry}`);
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol = (exported.flags & ts.SymbolFlags.Alias) !== 0 ? checker.getAliasedSymbol(exported) : exported;
      const declarations = symbol.declarations ?? [];
      // Declared in another package (core names re-exported by prefix-index): that package tags it.
      if (declarations.some((d) => !relative(ROOT, d.getSourceFile().fileName).startsWith(r.dir))) continue;
      const tagged = declarations.some((d) => ts.getJSDocTags(d).some((t) => t.tagName.text === 'category'));
      if (!tagged) missing.push(`${r.name}: ${exported.name} (${declarations[0] === undefined ? '?' : relative(ROOT, declarations[0].getSourceFile().fileName)})`);
    }
  }
  return missing;
}

describe('API reference categories', () => {
  it('every root export of a package with groups carries @category, so the typedoc site stays navigable by area', () => {
    expect(uncategorised()).toEqual([]);
  }, 60_000);
});
