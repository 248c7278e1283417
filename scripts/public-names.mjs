#!/usr/bin/env node
// Lists the public names of every workspace package's root export (`@switchyard/core`, ...), with
// what each name refers to, using the TypeScript compiler over the sources. docs/architecture.md
// quotes the counts this prints, and tests/public-names.test.ts checks that the doc matches and
// that no name means two different things in two packages.
//
//   node scripts/public-names.mjs          # a markdown table of counts
//   node scripts/public-names.mjs --json   # every name with its kind and declaration
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The workspace packages with their root entry source (`packages/core/src/index.ts`). */
export function workspaceRoots(root = ROOT) {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return manifest.workspaces.map((dir) => {
    const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
    return { name: pkg.name, dir, entry: join(root, dir, 'src', 'index.ts') };
  });
}

/** `value`, `type` or `value+type` (a class, an enum, a const with a type of the same name). */
function kindOf(symbol) {
  const value = (symbol.flags & ts.SymbolFlags.Value) !== 0;
  const type = (symbol.flags & ts.SymbolFlags.Type) !== 0;
  return value && type ? 'value+type' : value ? 'value' : 'type';
}

/**
 * Every package's root names: `{ package, names: [{ name, kind, target }] }`, where `target` is
 * the declaration the name resolves to after re-exports (`packages/core/src/x.ts#Name`), so the
 * same object re-exported by two packages has the same target.
 */
export function publicNames(root = ROOT) {
  const roots = workspaceRoots(root);
  const configPath = join(root, 'tsconfig.json');
  const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (config === undefined) throw new Error(`cannot read ${configPath}`);
  const program = ts.createProgram({ rootNames: roots.map((r) => r.entry), options: { ...config.options, noEmit: true } });
  const checker = program.getTypeChecker();
  return roots.map((r) => {
    const source = program.getSourceFile(r.entry);
    const moduleSymbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (moduleSymbol === undefined) throw new Error(`${r.name}: no module at ${relative(root, r.entry)}`);
    const names = checker.getExportsOfModule(moduleSymbol).map((exported) => {
      const symbol = (exported.flags & ts.SymbolFlags.Alias) !== 0 ? checker.getAliasedSymbol(exported) : exported;
      const declaration = symbol.declarations?.[0];
      const file = declaration === undefined ? '?' : relative(root, declaration.getSourceFile().fileName);
      return { name: exported.name, kind: kindOf(symbol), target: `${file}#${symbol.name}` };
    });
    names.sort((a, b) => a.name.localeCompare(b.name));
    return { package: r.name, dir: r.dir, names };
  });
}

/** The markdown table docs/architecture.md carries (between its public-names markers). */
export function countsTable(listing) {
  const rows = listing.map((p) => {
    const values = p.names.filter((n) => n.kind !== 'type').length;
    return `| \`${p.package}\` | ${p.names.length} | ${values} | ${p.names.length - values} |`;
  });
  return ['| package | public root names | values | types only |', '|---|---|---|---|', ...rows].join('\n');
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const listing = publicNames();
  console.log(process.argv.includes('--json') ? JSON.stringify(listing, null, 2) : countsTable(listing));
}
