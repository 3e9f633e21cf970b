import { createServer } from 'node:net';
import type { Database } from '@sendwell/db';
import { createLogger, type App } from '@sendwell/server-kit';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createTestDb,
  deleteKeys,
  freePort,
  startServiceProcess,
  startSmtpServer,
  startStripeStandIn,
  testRedisUrl,
  uniquePrefix,
  type ReceivedMail,
  type ServiceProcess,
  type StripeStandIn,
  type TestSmtpServer,
} from '@sendwell/testing';
import { buildApp } from '../src/app.js';
import { createDeps, type Deps } from '../src/deps.js';
import { loadEnv } from '../src/env.js';

export const APP_URL = 'http://app.test';
export const ADMIN_EMAIL = 'Admin@Example.com';

export interface Harness {
  app: App;
  deps: Deps;
  /** The test file's own database, for arranging and checking rows directly. */
  db: Database;
  smtp: TestSmtpServer;
  /** This harness's own BullMQ prefix on the shared Redis. */
  queuePrefix: string;
  /** With `{ billing: true }`: the real billing service (a process, on this database) and its Stripe stand-in. */
  billing?: { service: ServiceProcess; stripe: StripeStandIn; secretKey: string };
  close(): Promise<void>;
}

const STRIPE_KEYS = { secretKey: 'sk_test_auth_tests', webhookSecret: 'whsec_auth_tests' };

/** The real service on a database of its own, sending mail to a real SMTP server on loopback. */
export async function startHarness(env: Record<string, string> = {}, options: { billing?: boolean } = {}): Promise<Harness> {
  const testDb = await createTestDb();
  const smtp = await startSmtpServer();
  const queuePrefix = uniquePrefix('auth');
  const billing = options.billing ? await startBilling(testDb.url) : undefined;
  const config = loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: testDb.url,
    DATABASE_POOL_MAX: '4',
    SMTP_URL: smtp.url,
    REDIS_URL: testRedisUrl(),
    QUEUE_PREFIX: queuePrefix,
    APP_URL,
    ADMIN_EMAIL,
    ...(billing ? { BILLING_URL: billing.service.url } : {}),
    ...env,
  });
  const deps = createDeps(config, createLogger('auth-test', 'silent'));
  const app = await buildApp(deps);
  await app.ready();
  return {
    app,
    deps,
    db: testDb.db,
    smtp,
    queuePrefix,
    ...(billing ? { billing } : {}),
    async close() {
      await app.close();
      await deps.close();
      await billing?.service.stop();
      await billing?.stripe.close();
      await deleteKeys(queuePrefix);
      await smtp.close();
      await testDb.close();
    },
  };
}

/** Billing as it runs in production, a service of its own, with the Stripe stand-in delivering its webhooks to it. */
async function startBilling(databaseUrl: string): Promise<NonNullable<Harness['billing']>> {
  const port = await freePort();
  const stripe = await startStripeStandIn({ port: 0, webhookUrl: `http://127.0.0.1:${port}/api/webhooks/stripe`, webhookSecret: STRIPE_KEYS.webhookSecret });
  const service = await startServiceProcess(
    'billing',
    { DATABASE_URL: databaseUrl, DATABASE_POOL_MAX: '3', STRIPE_SECRET_KEY: STRIPE_KEYS.secretKey, STRIPE_WEBHOOK_SECRET: STRIPE_KEYS.webhookSecret, STRIPE_API_URL: stripe.url },
    join(tmpdir(), `sendwell-auth-tests-${port}`),
    port,
  );
  return { service, stripe, secretKey: STRIPE_KEYS.secretKey };
}

/** A port nothing listens on, for an SMTP server that is down. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let counter = 0;
/** A valid registration body with a unique username and email. */
export function registration(overrides: Record<string, unknown> = {}) {
  counter += 1;
  const id = `${Date.now().toString(36)}${counter}`;
  const email = `user${id}@example.com`;
  return {
    username: `user_${id}`,
    email,
    confirmEmail: email,
    password: 'secret12',
    confirmPassword: 'secret12',
    firstName: 'Ada',
    lastName: 'Lovelace',
    signupSource: 'direct',
    quickCheckDomain: null,
    showUpgradeNotification: false,
    ...overrides,
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The session cookie a response sets (`token` in development), as `{ value, attributes }`. */
export function tokenCookie(setCookie: string | string[] | undefined, name = 'token'): { value: string; attributes: string } | undefined {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const line = all.find((c) => c.startsWith(`${name}=`));
  if (!line) return undefined;
  const [pair, ...attributes] = line.split(';');
  return { value: pair!.slice(name.length + 1), attributes: attributes.map((a) => a.trim()).join('; ') };
}

/** The token of the first link to `${APP_URL}${path}` in a mail's text and HTML (both must carry it). */
export function linkToken(mail: ReceivedMail, path: string): string {
  const pattern = new RegExp(`${APP_URL.replace(/\./g, '\\.')}${path}\\?token=([A-Za-z0-9_%-]+)`);
  const fromText = pattern.exec(mail.text)?.[1];
  const fromHtml = pattern.exec(mail.html)?.[1];
  if (!fromText || fromText !== fromHtml) throw new Error(`no ${path} link in mail "${mail.subject}"`);
  return decodeURIComponent(fromText);
}

/** Registers through the API and answers the token and user (verification off). */
export async function registerAndLogin(app: App, overrides: Record<string, unknown> = {}) {
  const body = registration(overrides);
  const res = await app.inject({ method: 'POST', url: '/api/auth/register', payload: body });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  const json = res.json() as { token: string; user: { id: number; email: string; username: string } };
  return { ...json, password: body.password, body };
}

export async function login(app: App, email: string, password: string) {
  return app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
}
