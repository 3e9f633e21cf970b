import { createDb, sql, type Database } from '@sendwell/db';
import type { Page } from 'playwright-core';
import { STACK_ADMIN_EMAIL } from '@sendwell/testing';
import { inject } from 'vitest';
import { uniqueUser } from './browser';

type TestUser = ReturnType<typeof uniqueUser>;

/**
 * Registers through the real API (POST /api/auth/register) and marks the address verified in the
 * database, then logs in through the UI. Sign-up screens have their own tests (account.e2e.ts); the
 * domain screens only need a signed-in user quickly.
 */
export async function registerViaApi(user: TestUser, extra: Record<string, unknown> = {}): Promise<void> {
  const res = await fetch(`${inject('baseUrl')}/api/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: user.username, email: user.email, confirmEmail: user.email, password: user.password, confirmPassword: user.password, firstName: 'Grace', lastName: 'Hopper', ...extra }),
  });
  if (!res.ok) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  await withDb((db) => db.updateTable('users').set({ emailVerified: true }).where('email', '=', user.email).execute());
}

let shared: Database | null = null;
/** The run's database (set-up only: plans, locks and history the API cannot set yet). */
export async function withDb<T>(fn: (db: Database) => Promise<T>): Promise<T> {
  shared ??= createDb({ connectionString: inject('databaseUrl'), max: 2, applicationName: 'web-e2e' });
  return fn(shared);
}
export async function closeDb(): Promise<void> {
  await shared?.destroy();
  shared = null;
}

/**
 * Sets a user's plan in the database, for screens that only need a paid plan (the services read it on
 * every call); billing.e2e.ts buys plans through Stripe.
 */
export async function setPlan(email: string, planType: string): Promise<void> {
  await withDb((db) => db.updateTable('users').set({ planType }).where('email', '=', email).execute());
}

/** Fills the register form with the user (and a name) and submits it. */
export async function fillRegistration(page: Page, user: TestUser): Promise<void> {
  await page.getByLabel('First name (optional)').fill('Ada');
  await page.getByLabel('Last name (optional)').fill('Lovelace');
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByLabel('Confirm email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByLabel('Confirm password').fill(user.password);
  await page.getByRole('button', { name: 'Create account' }).click();
}

export async function login(page: Page, user: TestUser): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/dashboard');
}

/** Skips the first-time preferences popup if it shows (it appears 1 s after the dashboard loads). */
export async function markPreferencesSet(email: string): Promise<void> {
  await withDb((db) => db.updateTable('users').set({ preferencesSet: true }).where('email', '=', email).execute());
}

export { sql };

/**
 * A verified user on a paid plan with preferences already set, for the screens behind the paywall.
 * The plan is set in the database (see `setPlan`).
 */
export async function registerPaidUser(label: string, planType: string): Promise<TestUser> {
  const user = uniqueUser(label);
  await registerViaApi(user);
  await setPlan(user.email, planType);
  await markPreferencesSet(user.email);
  return user;
}

/**
 * The stack's administrator (ADMIN_EMAIL), on the advanced plan. Registered by the first test that
 * asks; later ones sign in to the same account (the password is every test user's).
 */
export async function administrator(): Promise<TestUser> {
  const admin = { ...uniqueUser('admin'), email: STACK_ADMIN_EMAIL };
  const known = await withDb((db) => db.selectFrom('users').select('id').where('email', '=', admin.email).executeTakeFirst());
  if (!known) await registerViaApi(admin);
  await setPlan(admin.email, 'advanced');
  await markPreferencesSet(admin.email);
  return admin;
}

/** A bearer token from the real login call, for set-up through the API. */
export async function apiToken(user: TestUser): Promise<string> {
  const res = await fetch(`${inject('baseUrl')}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

export async function apiCall<T = unknown>(token: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${inject('baseUrl')}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

/** Adds a domain through the API and waits until its first scan has completed. */
export async function addDomainAndWaitForScan(token: string, name: string, timeoutMs = 30_000): Promise<number> {
  const added = await apiCall<{ domain: { id: number }; scanId: string | null }>(token, 'POST', '/api/domains', { name });
  if (added.status >= 300) throw new Error(`add ${name} failed: ${added.status} ${JSON.stringify(added.body)}`);
  const { id } = added.body.domain;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const checks = await apiCall<unknown[]>(token, 'GET', `/api/domains/${id}/checks`);
    if (checks.status === 200 && checks.body.length > 0) return id;
    if (Date.now() > deadline) throw new Error(`the first scan of ${name} did not complete within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 300));
  }
}
