#!/usr/bin/env node
// Reads vitest's JSON report and prints the one closing line CI counts:
// `N passed, N failed, N skipped`. Exits non-zero when anything failed or nothing ran.
import { existsSync, readFileSync } from 'node:fs';

const file = process.argv[2] ?? '.vitest-results.json';
if (!existsSync(file)) {
  console.log('0 passed, 1 failed, 0 skipped');
  console.error(`no test report at ${file}: the test run did not finish`);
  process.exit(1);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
let passed = 0;
let failed = 0;
let skipped = 0;
for (const suite of report.testResults ?? []) {
  for (const test of suite.assertionResults ?? []) {
    if (test.status === 'passed') passed++;
    else if (test.status === 'failed') failed++;
    else skipped++;
  }
  // A file that failed to load has no assertions but must still count as a failure.
  if ((suite.assertionResults ?? []).length === 0 && suite.status === 'failed') failed++;
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
