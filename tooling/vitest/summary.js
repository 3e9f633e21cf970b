#!/usr/bin/env node
// Adds up the JSON reports every package's vitest run wrote and prints one closing line,
// "Tests: N passed, N failed, N skipped", for the whole workspace, after the names of the tests that
// failed: a CI log is often read from its end only. `--clean` removes old reports first;
// `--turbo-exit=N` passes on turbo's exit code (a failed typecheck or lint writes no report).
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const reports = ['apps', 'services', 'packages', 'tests', 'scripts', 'bench', 'infra']
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
  const failures = [];
  for (const file of reports) {
    const r = JSON.parse(readFileSync(file, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + r.numTodoTests;
    for (const suite of r.testResults ?? []) {
      const where = suite.name.slice(root.length);
      for (const test of suite.assertionResults ?? []) {
        if (test.status !== 'failed') continue;
        const why = String(test.failureMessages?.[0] ?? '').split('\n')[0].slice(0, 300);
        failures.push(`  ✗ ${where} › ${test.fullName}\n      ${why}`);
      }
      if (suite.status === 'failed' && (suite.assertionResults ?? []).length === 0) failures.push(`  ✗ ${where}\n      ${String(suite.message ?? '').split('\n')[0].slice(0, 300)}`);
    }
  }
  const turboExit = Number(process.argv.find((a) => a.startsWith('--turbo-exit='))?.split('=')[1] ?? 0);
  if (failures.length > 0) console.log(`\nFailed:\n${failures.join('\n')}`);
  else if (turboExit !== 0) console.log('\nA task failed with no failing test: a typecheck, a lint, or errors vitest caught outside any test ("Unhandled Errors" in its log).');
  console.log(`\n${reports.length} test suites reported.`);
  console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  if (failed > 0 || passed === 0 || turboExit !== 0) process.exitCode = 1;
}
