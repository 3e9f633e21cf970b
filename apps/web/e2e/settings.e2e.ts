import type { Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { captureScreen } from './harness/browser';
import { login, registerPaidUser, setPlan, withDb } from './harness/session';
import { browserSuite } from './harness/suite';

const { newPage } = browserSuite();

const isPreferencePut = (r: Request) => r.method() === 'PUT' && /\/api\/user\/(?:timezone|date-format|currency)$/.test(r.url());

/** Stripe's reads failing at the billing service: 503, as the service answers when Stripe does not. */
const BILLING_READS = /\/api\/(?:payment-method|subscription\/status)$/;
const UNAVAILABLE = { status: 503, contentType: 'application/json', body: JSON.stringify({ code: 'UPSTREAM_UNAVAILABLE', message: 'Stripe did not answer' }) };

describe('settings', () => {
  it('says so when the billing reads fail, never that billing is "not available yet", and reads again on Try again', async () => {
    const user = await registerPaidUser('settings-billing-error', 'standard');
    const { page } = await newPage();
    await login(page, user);
    await page.route(BILLING_READS, (route) => route.fulfill(UNAVAILABLE));
    await page.goto('/settings');
    const error = page.getByTestId('billing-read-error');
    await error.getByText('Billing details could not be loaded', { exact: true }).waitFor();
    await error.getByRole('alert').waitFor();
    expect(await page.getByText('not available yet').count()).toBe(0);

    await page.unroute(BILLING_READS);
    await error.getByRole('button', { name: 'Try again' }).click();
    await error.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Plan', exact: true }).waitFor();

    // The user is re-read on a route change, not only on window focus: a plan changed elsewhere (here
    // in the database, as a payment's webhook does) shows on the next screen, with no reload.
    expect(await page.getByTestId('plan-label').textContent()).toBe('Standard Monitoring');
    await setPlan(user.email, 'advanced');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Domain History' }).click();
    await page.waitForURL('**/domain-history');
    await expect.poll(() => page.getByTestId('plan-label').textContent()).toBe('Advanced Monitoring');
  });

  it("saves the preferences in parallel, skips the 'Already set' ones and reports the currency lock", async () => {
    const user = await registerPaidUser('settings', 'standard');
    const { page } = await newPage();
    await login(page, user);
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'General' }).waitFor();
    // A plan set in the database has no Stripe subscription: the plan card shows, with nothing to renew.
    await page.getByRole('heading', { name: 'Plan', exact: true }).waitFor();
    expect(await page.getByTestId('already-set').count()).toBe(0);

    await page.getByTestId('timezone-trigger').click();
    await page.getByLabel('Search timezones').fill('sydney');
    await page.getByRole('button', { name: '(GMT+10:00) Sydney, Melbourne' }).click();
    await page.getByLabel('Date format').selectOption('dd MMMM yyyy');
    const puts: string[] = [];
    page.on('request', (r) => {
      if (isPreferencePut(r)) puts.push(new URL(r.url()).pathname);
    });
    await page.getByRole('button', { name: 'Save Preferences' }).click();
    await page.getByText('Preferences Updated', { exact: true }).waitFor();
    expect(puts.sort()).toEqual(['/api/user/currency', '/api/user/date-format', '/api/user/timezone']);
    expect(await page.evaluate(() => [localStorage.getItem('userTimezone'), localStorage.getItem('userDateFormat')])).toEqual(['Australia/Sydney', 'dd MMMM yyyy']);
    expect(await page.evaluate(() => (JSON.parse(localStorage.getItem('auth_user') ?? '{}') as { timezone?: string }).timezone)).toBe('Australia/Sydney');

    // Timezone and date format are now 'Already set' and not re-sent; the default currency still is.
    await page.reload();
    await page.getByRole('tab', { name: 'General' }).waitFor();
    await expect.poll(() => page.getByTestId('already-set').count()).toBe(2);
    await captureScreen(page, 'settings');
    puts.length = 0;
    await page.getByRole('button', { name: 'Save Preferences' }).click();
    await page.getByText('Preferences Updated', { exact: true }).waitFor();
    expect(puts).toEqual(['/api/user/currency']);

    // A payment elsewhere locks the currency; the server refuses the change and the toast says so.
    await withDb((db) => db.updateTable('users').set({ currencyLocked: true }).where('email', '=', user.email).execute());
    await page.getByLabel('Currency').selectOption('USD');
    await page.getByRole('button', { name: 'Save Preferences' }).click();
    await page.getByText('Currency Locked', { exact: true }).waitFor();
    await page.getByText(/currency is locked/i).first().waitFor();
    const row = await withDb((db) => db.selectFrom('users').select('currency').where('email', '=', user.email).executeTakeFirstOrThrow());
    expect(row.currency).toBe('AUD');
    // After a reload the stored user knows about the lock and the field is disabled.
    await page.reload();
    await expect.poll(() => page.getByLabel('Currency').isDisabled(), { timeout: 10_000 }).toBe(true);

    await page.getByRole('tab', { name: 'Notifications' }).click();
    await page.getByRole('switch', { name: 'Report emails' }).click();
    await page.getByRole('button', { name: 'Save Notifications' }).click();
    await page.getByText('Settings Updated', { exact: true }).waitFor();
    await captureScreen(page, 'settings-notifications');

    await page.getByRole('tab', { name: 'Account' }).click();
    await page.getByText('Your email cannot be changed', { exact: true }).waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe(user.email);
    expect(await page.getByLabel('Email').getAttribute('readonly')).not.toBeNull();
    await captureScreen(page, 'settings-account');
    // Saving the profile, the password, the export and deletion: account-settings.e2e.ts.
  });
});
