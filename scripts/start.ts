/**
 * `pnpm start`: checks Postgres and Redis (starting them with Docker where it can), migrates, runs
 * every service and one scanner compiled (`node dist/main.js`, which the `pnpm start` line builds
 * first), the intake with its SMTP listener on INTAKE_SMTP_PORT (2500), waits for their /health, restarts a service that crashes (with a growing delay, giving up
 * and stopping everything after 5 crashes within 60 s) and stops them all together. Without
 * STRIPE_SECRET_KEY, billing runs on the local Stripe stand-in (no real payments; production refuses);
 * either way the Stripe catalogue is synced with the plan rules first (`pnpm stripe:sync`).
 * `pnpm dev` (`--dev`): the same from source with `tsx watch`, and the Vite dev server on 5173.
 * This script layer is the one place besides services' env.ts that reads process.env.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { ensureDatabase, migrateToLatest, pingPostgres } from '@sendwell/db';
import { pingRedis } from '@sendwell/server-kit';
import { dockerAnswers, portInUse, waitForHttp, waitForPort } from './lib/checks.js';
import { decidePreflight, dockerEndpoint, maintenanceUrl, redactUrl, type Backing } from './lib/preflight.js';
import { Supervisor, describeExit } from './lib/processes.js';
import {
  GATEWAY_INTERNAL_PORT,
  GATEWAY_PORT,
  SERVICES,
  STRIPE_STAND_IN_PORT,
  VITE_PORT,
  intakeSmtpPort,
  serviceEnv,
  serviceSpec,
  stripeStandInSpec,
  stripeSyncSpec,
  viteSpec,
} from './lib/services.js';

const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/sendwell';
const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
const HEALTH_TIMEOUT_MS = 60_000;
const CONTAINER_TIMEOUT_MS = 90_000;
/** Services close their servers, workers and pools on SIGTERM; past this they are killed. */
const STOP_GRACE_MS = 10_000;

const root = fileURLToPath(new URL('..', import.meta.url));
const dev = process.argv.includes('--dev');
const colour = Boolean(process.stdout.isTTY);

const say = (message: string) => process.stdout.write(`${colour ? '\x1b[1m[sendwell]\x1b[0m' : '[sendwell]'} ${message}\n`);
const fail = (message: string): never => {
  process.stderr.write(`\n${colour ? '\x1b[31m' : ''}${message}${colour ? '\x1b[0m' : ''}\n\n`);
  process.exit(1);
};

// ---- stopping: installed first, so a Ctrl-C at any point stops whatever has started -------------

let stopping = false;
const supervisor = new Supervisor([...SERVICES.map((s) => s.name), 'web', 'stripe'], {
  onGiveUp: (exit, crashes) => void stop(1, `${exit.name} keeps crashing (${crashes} times, last ${describeExit(exit)}); stopping every service`),
  log: say,
  colour,
});

async function stop(code: number, reason: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  say(reason);
  const killed = await supervisor.stopAll(STOP_GRACE_MS);
  if (killed.length > 0) say(`killed after ${STOP_GRACE_MS / 1000} s without stopping: ${killed.join(', ')}`);
  if (code === 0) say('stopped.');
  else process.stderr.write(`\nSendwell stopped: ${reason}\n`);
  process.exit(code);
}

let firstSignalAt = 0;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (!stopping) {
      firstSignalAt = Date.now();
      void stop(0, `${signal}: stopping every service…`);
      return;
    }
    // One Ctrl-C can arrive twice (from the terminal and relayed by a wrapper such as the tsx CLI);
    // a second press a moment later means "now": the exit hook kills whatever is left.
    if (Date.now() - firstSignalAt > 1_000) process.exit(1);
  });
}

// ---- 1. Postgres and Redis -----------------------------------------------------------------------

const databaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
const redisUrl = process.env.REDIS_URL || DEFAULT_REDIS_URL;
const ping: Record<Backing, () => Promise<boolean>> = {
  postgres: () => pingPostgres(maintenanceUrl(databaseUrl)),
  redis: () => pingRedis(redisUrl),
};

const [postgresUp, redisUp] = await Promise.all([ping.postgres(), ping.redis()]);
const action = decidePreflight({
  postgres: { url: databaseUrl, explicit: Boolean(process.env.DATABASE_URL), answers: postgresUp },
  redis: { url: redisUrl, explicit: Boolean(process.env.REDIS_URL), answers: redisUp },
  dockerAnswers: postgresUp && redisUp ? false : await dockerAnswers(dockerEndpoint(process.env.DOCKER_HOST)),
});

if (action.kind === 'fail') fail(action.message);
if (action.kind === 'start-containers') {
  say(`${action.services.join(' and ')} not answering; a Docker engine does, so starting: ${action.command.join(' ')}`);
  const code = await new Promise<number | null>((resolve) => {
    const [command, ...args] = action.command;
    const child = spawn(command!, args, { cwd: root, stdio: 'inherit' });
    child.once('error', () => resolve(null));
    child.once('exit', (c) => resolve(c));
  });
  if (code !== 0) fail(`\`${action.command.join(' ')}\` failed${code === null ? ' to run' : ` (exit code ${code})`}.`);
  for (const backing of action.services) {
    const deadline = Date.now() + CONTAINER_TIMEOUT_MS;
    while (!(await ping[backing]())) {
      if (Date.now() > deadline) fail(`The ${backing} container started but does not answer after ${CONTAINER_TIMEOUT_MS / 1000} s.`);
      await new Promise((r) => setTimeout(r, 1_000));
    }
  }
}
say(`Postgres answers at ${redactUrl(databaseUrl)}; Redis answers at ${redactUrl(redisUrl)}`);

// ---- 2. Ports are free (else /health could answer from a process that is not ours) --------------

// Production takes real money: the stand-in would take none, so it is never started there.
const realStripe = Boolean(process.env.STRIPE_SECRET_KEY);
if (!realStripe && process.env.NODE_ENV === 'production') {
  fail('STRIPE_SECRET_KEY is not set. In production billing needs your Stripe keys (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PUBLISHABLE_KEY); the local Stripe stand-in takes no real payments.');
}

// The intake refuses the development report domain in production (and the scanner too): say so now
// rather than after five crashes.
if (process.env.NODE_ENV === 'production' && !process.env.INTAKE_DOMAIN) {
  fail('INTAKE_DOMAIN is not set. In production the intake needs its report domain (the domain whose MX points at its SMTP port, e.g. reports.example.com); the scanner reads it too.');
}
let smtpPort = 0;
try {
  smtpPort = intakeSmtpPort(process.env);
} catch (error) {
  fail((error as Error).message);
}

const ports = [
  ...SERVICES.map((s) => ({ name: s.name, port: s.port })),
  { name: 'intake SMTP', port: smtpPort },
  ...(realStripe ? [] : [{ name: 'Stripe stand-in', port: STRIPE_STAND_IN_PORT }]),
  { name: 'gateway internal', port: GATEWAY_INTERNAL_PORT },
  ...(dev ? [{ name: 'web (Vite)', port: VITE_PORT }] : []),
];
const busy = (await Promise.all(ports.map(async (p) => ((await portInUse(p.port)) ? p : null)))).filter((p) => p !== null);
if (busy.length > 0) {
  fail(
    `Port${busy.length > 1 ? 's' : ''} already in use: ${busy.map((p) => `${p.port} (${p.name})`).join(', ')}.\n` +
      'Stop whatever listens there (perhaps an earlier `pnpm start`), then try again.',
  );
}

// ---- 3. Migrate ----------------------------------------------------------------------------------

try {
  if (await ensureDatabase(databaseUrl)) say(`created database ${new URL(databaseUrl).pathname.slice(1)}`);
  const result = await migrateToLatest(databaseUrl);
  const applied = result.results?.filter((r) => r.status === 'Success').map((r) => r.migrationName) ?? [];
  say(applied.length > 0 ? `applied migrations: ${applied.join(', ')}` : 'database is up to date');
} catch (error) {
  fail(`Migrating ${redactUrl(databaseUrl)} failed: ${error instanceof Error ? error.message : String(error)}`);
}

// ---- 4. Stripe: the real one with a key, else the local stand-in; then the catalogue --------------

// INTAKE_DOMAIN, when set, reaches both services that read it (the intake and the scanner) from here;
// unset, both take the same development default.
const childEnv: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, INTAKE_SMTP_PORT: String(smtpPort) };

if (!realStripe) {
  const standInUrl = `http://127.0.0.1:${STRIPE_STAND_IN_PORT}`;
  // A secret of this run's: the stand-in signs its webhooks with it, billing checks them with it.
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  Object.assign(childEnv, {
    STRIPE_API_URL: standInUrl,
    STRIPE_SECRET_KEY: 'sk_test_sendwell_stand_in',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_sendwell_stand_in',
    STRIPE_WEBHOOK_SECRET: webhookSecret,
  });
  supervisor.start(
    stripeStandInSpec(root, { ...process.env, PORT: String(STRIPE_STAND_IN_PORT), STRIPE_WEBHOOK_URL: `http://127.0.0.1:${GATEWAY_PORT}/api/webhooks/stripe`, STRIPE_WEBHOOK_SECRET: webhookSecret }),
    SERVICES.length + 1,
  );
  // It answers 401 without a key; any answer means it listens.
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  while (!(await portInUse(STRIPE_STAND_IN_PORT))) {
    if (Date.now() > deadline) await stop(1, `the Stripe stand-in did not listen on ${standInUrl} within ${HEALTH_TIMEOUT_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
  say(`STRIPE_SECRET_KEY is not set: billing uses the local Stripe stand-in at ${standInUrl}, no real payments (README, "Billing")`);
}
const synced = await new Promise<number | null>((resolve) => {
  const spec = stripeSyncSpec(root, childEnv);
  const child = spawn(spec.command, spec.args, { cwd: spec.cwd, env: spec.env, stdio: ['ignore', 'inherit', 'inherit'] });
  child.once('error', () => resolve(null));
  child.once('exit', (code) => resolve(code));
});
// Billing syncs on its first checkout too, so an unreachable Stripe now is a warning, not a stop.
say(synced === 0 ? 'Stripe catalogue in step with the plan rules' : 'the Stripe catalogue sync failed (see above); billing retries it at the first checkout');

// ---- 5. Services ---------------------------------------------------------------------------------
say(`starting ${SERVICES.map((s) => s.name).join(', ')}${dev ? ' in watch mode, and the Vite dev server' : ''}`);
SERVICES.forEach((s, i) => supervisor.start(serviceSpec(root, s.name, serviceEnv(s.name, childEnv), dev), i));
if (dev) supervisor.start(viteSpec(root, childEnv), SERVICES.length);

const checks = [
  ...SERVICES.map((s) => ({ name: s.name, url: `http://127.0.0.1:${s.port}/health` })),
  ...(dev ? [{ name: 'web', url: `http://127.0.0.1:${VITE_PORT}/` }] : []),
];
const healthy = await Promise.all([
  // A service that crashes while starting is restarted by the supervisor, which stops everything if it keeps crashing.
  ...checks.map((c) => waitForHttp(c.url, { timeoutMs: HEALTH_TIMEOUT_MS, stillAlive: () => !stopping })),
  // The intake answers /health before its SMTP listener is up (and a listener that fails crashes it).
  waitForPort(smtpPort, {
    host: ['', '0.0.0.0', '::'].includes(process.env.INTAKE_SMTP_HOST ?? '') ? '127.0.0.1' : process.env.INTAKE_SMTP_HOST,
    timeoutMs: HEALTH_TIMEOUT_MS,
    stillAlive: () => !stopping,
  }),
]);
if (!stopping) {
  const silent = [...checks.map((c) => `${c.name} (/health)`), `intake SMTP (port ${smtpPort})`].filter((_, i) => !healthy[i]);
  if (silent.length > 0) {
    await stop(1, `${silent.join(', ')} did not answer within ${HEALTH_TIMEOUT_MS / 1000} s`);
  } else {
    const url = dev ? `http://localhost:${VITE_PORT}` : `http://localhost:${GATEWAY_PORT}`;
    const reportDomain = process.env.INTAKE_DOMAIN ? ` for <token>@${process.env.INTAKE_DOMAIN}` : '';
    say(`SMTP intake (DMARC and TLS-RPT reports${reportDomain}) listening on port ${smtpPort}`);
    say(`${colour ? '\x1b[32;1m' : ''}Sendwell is running at ${url}${colour ? '\x1b[0m' : ''}${dev ? ` (gateway: http://localhost:${GATEWAY_PORT})` : ''}  (Ctrl-C stops it)`);
  }
}
