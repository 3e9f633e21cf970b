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
  { name: 'intake', port: 3006 },
  { name: 'gateway', port: 3000 },
] as const;

export type ServiceName = (typeof SERVICES)[number]['name'];

export const GATEWAY_PORT = 3000;
/** The gateway's internal listener (`/metrics`, `/health/ready`), loopback only; its INTERNAL_PORT default. */
export const GATEWAY_INTERNAL_PORT = 3010;
export const VITE_PORT = 5173;
/** The intake's SMTP listener (its INTAKE_SMTP_PORT default; port 25 behind a load balancer in production). */
export const INTAKE_SMTP_PORT = 2500;

/** The gateway's setting naming each upstream's base URL (services/gateway/src/env.ts). */
const UPSTREAM_URL_SETTING: Partial<Record<ServiceName, string>> = {
  auth: 'AUTH_URL',
  domains: 'DOMAINS_URL',
  billing: 'BILLING_URL',
  reports: 'REPORTS_URL',
  scanner: 'SCANNER_URL',
  intake: 'INTAKE_URL',
};

/**
 * The environment one service starts with: the shared one, its own PORT from SERVICES (so a PORT
 * exported in the shell cannot make every service reach for the same port), and for the gateway each
 * upstream's URL at the port that service was given here (INTAKE_URL included), so the ports above are
 * the one place they are written.
 */
export function serviceEnv(name: ServiceName, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const port = SERVICES.find((s) => s.name === name)!.port;
  const own: NodeJS.ProcessEnv = { PORT: String(port) };
  if (name === 'gateway') {
    for (const s of SERVICES) {
      const setting = UPSTREAM_URL_SETTING[s.name];
      if (setting) own[setting] = `http://127.0.0.1:${s.port}`;
    }
  }
  return { ...env, ...own };
}

/** The intake's SMTP port for this run: INTAKE_SMTP_PORT when given (and a valid port), else 2500. */
export function intakeSmtpPort(env: NodeJS.ProcessEnv): number {
  const given = env.INTAKE_SMTP_PORT?.trim();
  if (!given) return INTAKE_SMTP_PORT;
  const port = Number(given);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new Error(`INTAKE_SMTP_PORT is ${given}: expected a port number (1–65535)`);
  return port;
}

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
