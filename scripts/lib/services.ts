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
/** The gateway's internal listener (`/metrics`, `/health/ready`), loopback only; its INTERNAL_PORT default. */
export const GATEWAY_INTERNAL_PORT = 3010;
export const VITE_PORT = 5173;

const requireHere = createRequire(import.meta.url);

/**
 * Node's flags for compiled code: `@sendwell/dist` makes the workspace packages' `exports` resolve to
 * their `dist/` builds (without it they resolve to `src/*.ts`, for tsx, vitest, tsc and Vite);
 * source maps keep stack traces pointing at the TypeScript.
 */
export const COMPILED_NODE_FLAGS = ['--conditions=@sendwell/dist', '--enable-source-maps'] as const;

/**
 * The compiled service, `node dist/main.js` in its folder (what `pnpm --filter … start` runs, minus
 * the pnpm wrapper, so signals reach the service itself; `pnpm build` first). In dev mode, `tsx watch`
 * runs the source and restarts it on change.
 */
export function serviceSpec(root: string, name: string, env: NodeJS.ProcessEnv, dev: boolean): ProcessSpec {
  if (dev) return { ...sourceServiceSpec(root, name, env), args: [requireHere.resolve('tsx/cli'), 'watch', '--clear-screen=false', 'src/main.ts'] };
  return { name, command: process.execPath, args: [...COMPILED_NODE_FLAGS, 'dist/main.js'], cwd: join(root, 'services', name), env };
}

/** The service from source with tsx, as before the compiled build (scripts/measure-start.ts compares them). */
export function sourceServiceSpec(root: string, name: string, env: NodeJS.ProcessEnv): ProcessSpec {
  return { name, command: process.execPath, args: ['--import', 'tsx', 'src/main.ts'], cwd: join(root, 'services', name), env };
}

/** The Vite dev server, proxying /api to the gateway (apps/web/vite.config.ts). */
export function viteSpec(root: string, env: NodeJS.ProcessEnv): ProcessSpec {
  const cwd = join(root, 'apps', 'web');
  const vite = join(dirname(createRequire(join(cwd, 'package.json')).resolve('vite/package.json')), 'bin', 'vite.js');
  return { name: 'web', command: process.execPath, args: [vite, '--port', String(VITE_PORT), '--strictPort'], cwd, env };
}

/** The local Stripe stand-in's port (stripe-mock's), used when no STRIPE_SECRET_KEY is set. */
export const STRIPE_STAND_IN_PORT = 12111;

/** The Stripe stand-in (packages/testing), as `pnpm --filter @sendwell/testing stripe` runs it. */
export function stripeStandInSpec(root: string, env: NodeJS.ProcessEnv): ProcessSpec {
  return { name: 'stripe', command: process.execPath, args: ['--import', 'tsx', 'src/stripe/main.ts'], cwd: join(root, 'packages', 'testing'), env };
}

/** `pnpm stripe:sync`: the billing catalogue (products and prices by lookup key) made to match the plan rules. */
export function stripeSyncSpec(root: string, env: NodeJS.ProcessEnv): ProcessSpec {
  return { name: 'stripe:sync', command: process.execPath, args: ['--import', 'tsx', 'src/stripe-sync-cli.ts'], cwd: join(root, 'services', 'billing'), env };
}
