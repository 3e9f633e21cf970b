/**
 * The workspace summary (tooling/vitest/summary.js) reads one `.test-results/vitest.json` per package;
 * this folds the browser run's counts into it so `pnpm test` reports unit and browser tests together.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = join(import.meta.dirname, '..', '.test-results');
const read = (name: string) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as Record<string, unknown>;
if (existsSync(join(dir, 'vitest.json')) && existsSync(join(dir, 'vitest-e2e.json'))) {
  const unit = read('vitest.json');
  const e2e = read('vitest-e2e.json');
  for (const key of Object.keys(unit)) {
    if (typeof unit[key] === 'number' && typeof e2e[key] === 'number' && key.startsWith('num')) unit[key] = (unit[key] as number) + (e2e[key] as number);
  }
  unit.testResults = [...((unit.testResults as unknown[]) ?? []), ...((e2e.testResults as unknown[]) ?? [])];
  unit.success = Boolean(unit.success) && Boolean(e2e.success);
  writeFileSync(join(dir, 'vitest.json'), JSON.stringify(unit));
}
