#!/usr/bin/env node
// Adds up the JSON reports every package's vitest run wrote and prints one closing line,
// "Tests: N passed, N failed, N skipped", for the whole workspace, after the names of the tests that
// failed: a CI log is often read from its end only. Each package writes `.test-results/vitest.json`
// (apps/web's browser run `vitest-e2e.json` beside it). `--clean` removes old reports first;
// `--runs-exit=N` passes on the runs' exit code (a failed typecheck or lint writes no report).
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const reports = ['apps', 'services', 'packages', 'tests', 'scripts', 'bench', 'infra']
  .flatMap((group) => (existsSync(join(root, group)) ? readdirSync(join(root, group)).map((name) => join(root, group, name)) : []))
  .concat([join(root, 'scripts')])
  .map((dir) => join(dir, '.test-results'))
  .filter((dir) => existsSync(dir))
  .flatMap((dir) => readdirSync(dir).filter((name) => /^vitest(-[\w-]+)?\.json$/.test(name)).map((name) => join(dir, name)));

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
  const runsExit = Number(process.argv.find((a) => a.startsWith('--runs-exit='))?.split('=')[1] ?? 0);
  if (failures.length > 0) console.log(`\nFailed:\n${failures.join('\n')}`);
  else if (runsExit !== 0) console.log('\nA task failed with no failing test: a typecheck, a lint, or errors vitest caught outside any test ("Unhandled Errors" in its log).');
  console.log(`\n${reports.length} test reports read.`);
  console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  if (failed > 0 || passed === 0 || runsExit !== 0) process.exitCode = 1;
}
