/** Runs every `bench/<area>/*.bench.ts`, one at a time (they measure the machine, so never in parallel). */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv[2];
const files = readdirSync(here)
  .filter((area) => area !== 'node_modules' && area !== 'results' && statSync(join(here, area)).isDirectory())
  .flatMap((area) => readdirSync(join(here, area)).filter((f) => f.endsWith('.bench.ts')).map((f) => join(area, f)))
  .filter((file) => !only || file.includes(only))
  .sort();

let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', file], { cwd: here, stdio: 'inherit' });
  if (result.status !== 0) {
    failed++;
    console.error(`${file} failed (${result.status ?? result.signal})`);
  }
}
console.log(`\n${files.length - failed}/${files.length} benchmarks finished`);
process.exit(failed ? 1 : 0);
