import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ProcessSpec } from './processes.js';

/** Every process `pnpm start` runs, in start order: the gateway last, once its upstreams are coming up. */
export const SERVICES = [
  { name: 'auth', port: 3001 },
  { name: 'domains', port: 3002 },
  { name: 'billing', port: 3003 },
  { name: 'reports', port: 3004 },
  { name: 'scanner', port: 3005 },
  { name: 'gateway', port: 3000 },
] as const;

export const GATEWAY_PORT = 3000;
export const VITE_PORT = 5173;

const requireHere = createRequire(import.meta.url);

/**
 * `node --import tsx src/main.ts` in the service's folder (what `pnpm --filter … start` runs, minus
 * the pnpm wrapper, so signals reach the service itself). In dev mode, `tsx watch` restarts it on change.
 */
export function serviceSpec(root: string, name: string, env: NodeJS.ProcessEnv, dev: boolean): ProcessSpec {
  const args = dev
    ? [requireHere.resolve('tsx/cli'), 'watch', '--clear-screen=false', 'src/main.ts']
    : ['--import', 'tsx', 'src/main.ts'];
  return { name, command: process.execPath, args, cwd: join(root, 'services', name), env };
}

/** The Vite dev server, proxying /api to the gateway (apps/web/vite.config.ts). */
export function viteSpec(root: string, env: NodeJS.ProcessEnv): ProcessSpec {
  const cwd = join(root, 'apps', 'web');
  const vite = join(dirname(createRequire(join(cwd, 'package.json')).resolve('vite/package.json')), 'bin', 'vite.js');
  return { name: 'web', command: process.execPath, args: [vite, '--port', String(VITE_PORT), '--strictPort'], cwd, env };
}
