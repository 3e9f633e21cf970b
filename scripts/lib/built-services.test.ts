import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createTestDb, deleteKeys, testRedisUrl, uniquePrefix, type TestDb } from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort, waitForHttp } from './checks.js';
import { SERVICES, serviceSpec } from './services.js';

/**
 * The production build: every service compiled by `turbo run build` starts as `pnpm start` and the
 * Docker image run it (`node dist/main.js`, workspace packages from their dist/), answers /health and
 * stops cleanly on SIGTERM. A broken build, an export that no longer resolves to dist/, or code that
 * only runs under tsx fails here.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const prefix = uniquePrefix('build');
let database: TestDb;

beforeAll(async () => {
  // Cached by turbo when nothing changed; esbuild takes seconds otherwise.
  const build = spawnSync('pnpm', ['exec', 'turbo', 'run', 'build', '--filter=./services/*', '--output-logs=errors-only'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 180_000,
  });
  if (build.status !== 0) throw new Error(`turbo run build failed (${build.status ?? build.signal}):\n${build.stdout}\n${build.stderr}`);
  database = await createTestDb();
}, 200_000);

afterAll(async () => {
  await database?.close();
  await deleteKeys(prefix);
});

/** Starts one compiled service on a free port; resolves with the child, its port and its output so far. */
async function startCompiled(name: string) {
  const port = await freeLoopbackPort();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATABASE_URL: database.url,
    DATABASE_POOL_MAX: '2',
    REDIS_URL: testRedisUrl(),
    QUEUE_PREFIX: prefix,
    PORT: String(port),
    // The gateway's internal listener: any free port, never a running `pnpm start`'s 3010.
    INTERNAL_PORT: '0',
    // The intake's SMTP listener likewise: any free port, never a running `pnpm start`'s 2500.
    INTAKE_SMTP_PORT: '0',
  };
  const spec = serviceSpec(root, name, env, false);
  const child: ChildProcess = spawn(spec.command, spec.args, { cwd: spec.cwd, env: spec.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  return { child, port, output: () => output };
}

describe('compiled services (node dist/main.js)', () => {
  it('run with no tsx loader', () => {
    for (const { name } of SERVICES) {
      const { args } = serviceSpec(root, name, {}, false);
      expect(args).toContain('dist/main.js');
      expect(args.join(' ')).not.toMatch(/tsx/);
    }
  });

  it('every service answers /health and exits 0 on SIGTERM', async () => {
    const started = await Promise.all(SERVICES.map(async ({ name }) => ({ name, ...(await startCompiled(name)) })));
    try {
      const health = await Promise.all(
        started.map(async ({ name, child, port, output }) => {
          const ok = await waitForHttp(`http://127.0.0.1:${port}/health`, { timeoutMs: 60_000, stillAlive: () => child.exitCode === null });
          return { name, ok, output: ok ? '' : output() };
        }),
      );
      expect(health.filter((h) => !h.ok)).toEqual([]);
    } finally {
      const exits = await Promise.all(
        started.map(({ name, child }) => {
          const exited = new Promise<number | null>((resolve) => {
            if (child.exitCode !== null) resolve(child.exitCode);
            else child.once('exit', (code) => resolve(code));
          });
          child.kill('SIGTERM');
          return exited.then((code) => ({ name, code }));
        }),
      );
      expect(exits).toEqual(started.map(({ name }) => ({ name, code: 0 })));
    }
  }, 120_000);
});
