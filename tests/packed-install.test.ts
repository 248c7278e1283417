/*
 * Our packages as a user installs them (issue 17, item 10): every workspace package is packed
 * with `npm pack`, the tarballs are installed into a scratch app in a temp dir together with the
 * newest zod and undici our ranges allow (from the registry), and the documented examples (each
 * package README's ts blocks, the custom-scorer example of docs/scheduling.md) are type-checked
 * with `tsc --noEmit`, strict, NodeNext, library checking on. Every export subpath is also
 * imported and required at run time and its types imported from ESM and CJS files. It fails when
 * a package's `exports` or types are broken, when zod is installed twice, or when a zod newer
 * than the one we build with breaks the documented plugin code (TS2589: type instantiation is
 * excessively deep, which two zod copies cause).
 *
 * It needs the built `dist/` (npm run build) and the registry; it takes a few minutes.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredRange, installedVersions, packAll, sh, workspacePackages, writeApp } from './packed-install/scratch-app.js';
import { SNIPPET_CONTEXT, SNIPPET_CONTEXT_TYPES, documentedExamples } from './packed-install/snippets.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MINUTE = 60_000;
const packages = workspacePackages(ROOT);
const rootManifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
/** The compiler the repository builds with; the app's own code and types are what is checked. */
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** A package's public subpaths (`@switchyard/core/testing`), without patterns and package.json. */
function subpaths(dir: string, name: string): string[] {
  const manifest = JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as { exports?: Record<string, unknown> };
  return Object.entries(manifest.exports ?? {})
    .filter(([key, target]) => target !== null && !key.includes('*') && key !== './package.json')
    .map(([key]) => (key === '.' ? name : `${name}/${key.slice(2)}`));
}

const SPECIFIERS = packages.flatMap((p) => subpaths(p.dir, p.name));
const EXAMPLES = documentedExamples(ROOT, packages.map((p) => p.dir));

let work: string | undefined;
let app: string;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-packed-'));
  work = dir;
  app = join(dir, 'app');
  const tarballs = await packAll(ROOT, packages, join(dir, 'tarballs'), 3 * MINUTE);
  const files: Record<string, string> = {
    'context.ts': SNIPPET_CONTEXT,
    'context-types.ts': SNIPPET_CONTEXT_TYPES,
    // Every subpath's types, through the import (ESM) and require (CJS) conditions.
    'types-esm.ts': `${SPECIFIERS.map((s, i) => `import type * as m${i} from '${s}';`).join('\n')}\nexport type All = [${SPECIFIERS.map((_, i) => `typeof m${i}`).join(', ')}];\n`,
    'types-cjs.cts': `${SPECIFIERS.map((s, i) => `import m${i} = require('${s}');`).join('\n')}\nexport type All = [${SPECIFIERS.map((_, i) => `typeof m${i}`).join(', ')}];\n`,
  };
  for (const e of EXAMPLES) files[e.file] = e.source;
  writeApp(app, files);
  // What a user adds: our tarballs, and the newest zod/undici our ranges allow (not the lock
  // file's pins), prom-client for the registry the docs pass, fastify (the optional peer whose
  // types the `/fastify` subpath uses, as a Fastify user has it), Node's types.
  const wanted = [
    ...tarballs,
    `zod@${declaredRange(packages, 'zod')}`,
    `undici@${declaredRange(packages, 'undici')}`,
    `prom-client@${declaredRange(packages, 'prom-client')}`,
    `fastify@${declaredRange(packages, 'fastify', 'peerDependencies')}`,
    `@types/node@${rootManifest.devDependencies['@types/node'] ?? '20'}`,
  ];
  await sh('npm', ['install', '--no-audit', '--no-fund', '--prefer-online', '--ignore-scripts', ...wanted], app, 6 * MINUTE);
}, 10 * MINUTE);

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

describe('the packed packages in a scratch app', () => {
  it('install one zod, shared by every package', async () => {
    expect(await installedVersions(app, 'zod', MINUTE)).toHaveLength(1);
    expect(await installedVersions(app, 'undici', MINUTE)).toHaveLength(1);
  }, 3 * MINUTE);

  it('load every export subpath with import and require', async () => {
    expect(SPECIFIERS).toEqual(expect.arrayContaining(['@switchyard/core', '@switchyard/core/testing', '@switchyard/express/fastify']));
    const esm = `for (const s of ${JSON.stringify(SPECIFIERS)}) { const m = await import(s); if (Object.keys(m).length === 0) throw new Error(s + ' exports nothing'); }`;
    await sh(process.execPath, ['--input-type=module', '-e', esm], app, 2 * MINUTE);
    const cjs = `for (const s of ${JSON.stringify(SPECIFIERS)}) { const m = require(s); if (Object.keys(m).length === 0) throw new Error(s + ' exports nothing'); }`;
    await sh(process.execPath, ['-e', cjs], app, 2 * MINUTE);
  }, 5 * MINUTE);

  it('type-check the documented examples and every subpath (tsc --noEmit, strict, NodeNext)', async () => {
    // The docs' plugin example and at least one block of every package README.
    expect(EXAMPLES.map((e) => e.origin)).toContain('examples/custom-scorer.ts');
    for (const p of packages) expect(EXAMPLES.some((e) => e.origin.startsWith(`${p.dir}/README.md`)), p.dir).toBe(true);
    let output = '';
    try {
      output = await sh(process.execPath, [TSC, '-p', 'tsconfig.json', '--pretty', 'false'], app, 5 * MINUTE);
    } catch (err) {
      // The compiler's diagnostics name the file (readme-<package>-<n>.ts is block n of that README).
      throw new Error(`the documented examples do not type-check against the packed packages:\n${(err as Error).message}`);
    }
    expect(output.trim()).toBe('');
  }, 6 * MINUTE);
});
