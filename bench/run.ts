/**
 * Runs every `bench/<area>/*.bench.ts`, one at a time (they measure the machine, so never in parallel).
 *
 *   tsx run.ts [filter]           the sections whose path contains `filter` (e.g. `scanner`, `hostile`)
 *   tsx run.ts --smoke [filter]   smoke mode (BENCH_SMOKE=1, lib/smoke.ts): tiny sizes, no build, no goals enforced
 */
import { spawnSync } from 'node:child_process';
import { BENCH_DIR, benchFiles } from './lib/sections.js';

const args = process.argv.slice(2);
const smoke = args.includes('--smoke') || process.env.BENCH_SMOKE === '1';
const only = args.find((a) => !a.startsWith('--'));
const files = benchFiles().filter((file) => !only || file.includes(only));
if (files.length === 0) {
  console.error(`no benchmark matches "${only}"`);
  process.exit(1);
}

let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file}${smoke ? ' (smoke)' : ''}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', file], {
    cwd: BENCH_DIR,
    stdio: 'inherit',
    env: { ...process.env, ...(smoke ? { BENCH_SMOKE: '1' } : {}) },
  });
  if (result.status !== 0) {
    failed++;
    console.error(`${file} failed (${result.status ?? result.signal})`);
  }
}
console.log(`\n${files.length - failed}/${files.length} benchmarks finished${smoke ? ' (smoke)' : ''}`);
process.exit(failed ? 1 : 0);
