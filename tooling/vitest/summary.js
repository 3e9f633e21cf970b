#!/usr/bin/env node
// Adds up the JSON reports every package's vitest run wrote and prints one closing line,
// "Tests: N passed, N failed, N skipped", for the whole workspace. `--clean` removes old reports first.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const reports = ['apps', 'services', 'packages', 'tests', 'scripts', 'bench']
  .flatMap((group) => (existsSync(join(root, group)) ? readdirSync(join(root, group)).map((name) => join(root, group, name)) : []))
  .concat([join(root, 'scripts')])
  .map((dir) => join(dir, '.test-results', 'vitest.json'))
  .filter((file) => existsSync(file));

if (process.argv.includes('--clean')) {
  for (const file of reports) rmSync(file);
} else {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const file of reports) {
    const r = JSON.parse(readFileSync(file, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + r.numTodoTests;
  }
  console.log(`\n${reports.length} test suites reported.`);
  console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  if (failed > 0 || passed === 0) process.exitCode = 1;
}
