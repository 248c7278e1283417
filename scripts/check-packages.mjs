#!/usr/bin/env node
// Packs every workspace package and checks the tarball as npm would publish it:
// publint (strict) for package.json/exports problems, and are-the-types-wrong for type
// resolution under node16 (ESM and CJS). Exits non-zero on the first package with a problem.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = JSON.parse(readFileSync('package.json', 'utf8'));
const out = mkdtempSync(join(tmpdir(), 'switchyard-pack-'));
let failed = 0;
try {
  for (const dir of root.workspaces) {
    const name = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name;
    const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', out], { cwd: dir, encoding: 'utf8' })
      .trim()
      .split('\n')
      .pop();
    const file = join(out, tarball);
    for (const [tool, args] of [
      ['publint', ['publint', '--strict', file]],
      ['attw', ['attw', file, '--profile', 'node16', '--format', 'table-flipped']],
    ]) {
      try {
        execFileSync('npx', ['--no-install', ...args], { stdio: 'pipe', encoding: 'utf8' });
        console.log(`ok   ${tool.padEnd(8)} ${name}`);
      } catch (err) {
        failed++;
        console.log(`FAIL ${tool.padEnd(8)} ${name}\n${err.stdout ?? ''}${err.stderr ?? ''}`);
      }
    }
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
process.exit(failed === 0 ? 0 : 1);
