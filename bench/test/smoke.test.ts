/**
 * Benchmarks that cannot rot (issue 27): every section of `pnpm bench` run in smoke mode
 * (`tsx run.ts --smoke <section>`, lib/smoke.ts): its own code and setup at tiny sizes, from the
 * services' sources. A section passes when it exits 0 and prints its SMOKE-RESULT line with every
 * figure sane (operations done, no errors); no speed goal is judged. Each section's whole output is
 * kept in bench/results/smoke/<section>.log.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { BENCH_DIR, benchFiles } from '../lib/sections.js';
import { SMOKE_RESULT_PREFIX, type SmokeResult } from '../lib/smoke.js';

// What the global setup (packages/testing's) provides; declared here because bench resolves its own copy of vitest.
declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    redisUrl: string;
  }
}

const LOG_DIR = join(BENCH_DIR, 'results', 'smoke');
/**
 * The slowest first, so the lanes (vitest.config.ts maxConcurrency) finish together; a section not
 * listed runs after them. Web comes last: it copies apps/web/dist when that build is fresh, which
 * under the root `pnpm test` the browser tests' global setup makes meanwhile, instead of building.
 */
const ORDER = ['chaos/chaos.bench.ts', 'domains/domains.bench.ts', 'scanner/scanner.bench.ts', 'intake/intake.bench.ts', 'gateway/gateway.bench.ts', 'reports/reports.bench.ts', 'notify/notify.bench.ts'];
const LAST = 'web/web.bench.ts';
const rank = (file: string) => (file === LAST ? ORDER.length + 1 : ORDER.includes(file) ? ORDER.indexOf(file) : ORDER.length);
const sections = benchFiles().sort((a, b) => rank(a) - rank(b));
/** Far above a smoke's run (seconds to tens of seconds): only a hang reaches it. */
const SECTION_TIMEOUT_MS = 300_000;

/** The environment of a section: the servers the global setup found, smoke mode, and no BENCH_* of the caller's shell. */
function sectionEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('BENCH_') && !name.startsWith('HOSTILE_')));
  // Vitest sets NODE_ENV=test; each section sets the NODE_ENV of the services it starts itself.
  delete env.NODE_ENV;
  return { ...env, BENCH_SMOKE: '1', DATABASE_URL: inject('postgresUrl'), REDIS_URL: inject('redisUrl') };
}

function runSection(file: string): Promise<{ code: number | null; signal: string | null; output: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'run.ts', '--smoke', file], { cwd: BENCH_DIR, env: sectionEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // A hung section and everything it started (its own process group) are killed.
    const timer = setTimeout(() => {
      output += `\n[smoke test] ${file} still running after ${SECTION_TIMEOUT_MS / 1000} s: killed\n`;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, SECTION_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output, ms: performance.now() - started });
    });
  });
}

describe.concurrent('pnpm bench sections in smoke mode', () => {
  it('finds the sections', () => {
    expect(sections.length).toBeGreaterThanOrEqual(9);
  });

  for (const file of sections) {
    it(`${file} starts and prints its figures`, { timeout: SECTION_TIMEOUT_MS + 30_000 }, async () => {
      const { code, signal, output, ms } = await runSection(file);
      mkdirSync(LOG_DIR, { recursive: true });
      const log = join(LOG_DIR, `${file.replace(/[/.]/g, '_')}.log`);
      writeFileSync(log, output);
      const tail = output.split('\n').slice(-40).join('\n');
      const line = output.split('\n').find((l) => l.startsWith(SMOKE_RESULT_PREFIX));
      const result = line ? (JSON.parse(line.slice(SMOKE_RESULT_PREFIX.length)) as SmokeResult) : null;
      expect(code, `${file} exited with ${code ?? signal} after ${(ms / 1000).toFixed(1)} s (whole output: ${log}):\n${tail}`).toBe(0);
      expect(result, `${file} printed no ${SMOKE_RESULT_PREFIX.trim()} line (whole output: ${log}):\n${tail}`).not.toBeNull();
      expect(result!.failed, `${file}: figures that say nothing was done`).toEqual([]);
      expect(result!.ok).toBe(true);
      expect(Object.keys(result!.figures).length).toBeGreaterThan(0);
    });
  }
});
