/**
 * Smoke mode (BENCH_SMOKE=1, or `tsx run.ts --smoke`): every section runs its own code with its own
 * setup, at tiny sizes, to prove it still starts and prints its figures (bench/test/smoke.test.ts
 * runs it under `pnpm test`). Nothing is timed against a goal in this mode: targets are printed as
 * usual but never fail the run; what fails it is an error, or a figure that says nothing was done
 * (`smokeResult`). Services run from their sources (tsx) instead of `dist/`, so no build is needed.
 */
import { fileURLToPath } from 'node:url';

export const SMOKE = process.env.BENCH_SMOKE === '1';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * A size: `smoke` in smoke mode (the environment is not read then, so a shell's BENCH_* cannot make
 * the test slow), else the environment variable `name` when set, else `full`.
 */
export function sized(name: string | null, full: number, smoke: number): number {
  if (SMOKE) return smoke;
  const given = name ? process.env[name] : undefined;
  return given !== undefined && given !== '' ? Number(given) : full;
}

/** Where a section writes its JSON figures: bench/results, or bench/results/smoke so a smoke run never overwrites a real one. */
export const RESULTS_DIR = `${ROOT}bench/results/${SMOKE ? 'smoke/' : ''}`;

/**
 * How to run a service: compiled (`dist/main.js`, as production runs it; the full bench builds it
 * first), or in smoke mode from its sources with tsx, which needs no build.
 */
export function serviceArgs(compiledFlags: readonly string[]): string[] {
  return SMOKE ? ['--import', 'tsx', 'src/main.ts'] : [...compiledFlags, 'dist/main.js'];
}

/** The line bench/test/smoke.test.ts looks for in a section's output. */
export const SMOKE_RESULT_PREFIX = 'SMOKE-RESULT ';

export interface SmokeResult {
  section: string;
  ok: boolean;
  /** The figures the section printed, by name: operations done, rates, milliseconds. */
  figures: Record<string, number>;
  /** The checks that did not hold (empty when ok). */
  failed: string[];
}

/**
 * In smoke mode: checks that the section did something (each `counts` figure a finite number above
 * zero, each `values` figure finite and not negative, each named condition true) and prints one
 * `SMOKE-RESULT {...}` line; throws when a check fails. Does nothing outside smoke mode.
 */
export function smokeResult(
  section: string,
  { counts = {}, values = {}, conditions = {} }: { counts?: Record<string, number>; values?: Record<string, number>; conditions?: Record<string, boolean> },
): void {
  if (!SMOKE) return;
  const failed = [
    ...Object.entries(counts).filter(([, v]) => !(Number.isFinite(v) && v > 0)).map(([k, v]) => `${k} = ${v} (expected > 0)`),
    ...Object.entries(values).filter(([, v]) => !(Number.isFinite(v) && v >= 0)).map(([k, v]) => `${k} = ${v} (expected a finite number ≥ 0)`),
    ...Object.entries(conditions).filter(([, ok]) => !ok).map(([k]) => k),
  ];
  const result: SmokeResult = { section, ok: failed.length === 0, figures: { ...counts, ...values }, failed };
  console.log(`${SMOKE_RESULT_PREFIX}${JSON.stringify(result)}`);
  if (failed.length > 0) throw new Error(`smoke ${section}: ${failed.join('; ')}`);
}
