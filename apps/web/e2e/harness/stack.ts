import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStack as startSharedStack, type Stack } from '@sendwell/testing';
import { fixtureRecords } from './fixture-dns';

export type { Stack };

export const WEB_DIR = fileURLToPath(new URL('../..', import.meta.url));
export const REPO_ROOT = join(WEB_DIR, '..', '..');
export const LOG_DIR = join(WEB_DIR, 'e2e', '.logs');

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((entry) => newestMtime(join(path, entry))));
}

/** Runs `vite build` when dist is missing or older than the sources it is built from. */
export function buildWebIfStale(): void {
  const built = join(WEB_DIR, 'dist', 'index.html');
  const sources = [join(WEB_DIR, 'src'), join(WEB_DIR, 'scripts'), join(WEB_DIR, 'index.html'), join(WEB_DIR, 'vite.config.ts'), join(REPO_ROOT, 'packages', 'contracts', 'src')];
  if (existsSync(built) && statSync(built).mtimeMs >= Math.max(...sources.map(newestMtime))) return;
  const vite = join(WEB_DIR, 'node_modules', 'vite', 'bin', 'vite.js');
  // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
    cwd: WEB_DIR,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) throw new Error(`vite build failed (exit ${result.status})`);
}

/**
 * The whole real stack (`@sendwell/testing`'s `startStack`) serving the built web app, with the
 * fixture domains of `fixture-dns.ts` and the service logs in `e2e/.logs/`.
 */
export function startStack(): Promise<Stack> {
  return startSharedStack({ logDir: LOG_DIR, dnsRecords: fixtureRecords, webDistDir: join(WEB_DIR, 'dist'), label: 'e2e' });
}
