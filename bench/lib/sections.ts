/** The sections `pnpm bench` runs: every `bench/<area>/*.bench.ts`, as paths relative to bench/, sorted. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = fileURLToPath(new URL('../', import.meta.url));

const NOT_AREAS = new Set(['node_modules', 'results', 'lib', 'test']);

export function benchFiles(): string[] {
  return readdirSync(BENCH_DIR)
    .filter((area) => !NOT_AREAS.has(area) && !area.startsWith('.') && statSync(join(BENCH_DIR, area)).isDirectory())
    .flatMap((area) => readdirSync(join(BENCH_DIR, area)).filter((f) => f.endsWith('.bench.ts')).map((f) => `${area}/${f}`))
    .sort();
}
