import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { captureScreen } from './harness/browser';
import { linkFromMail, waitForMail } from './harness/mailbox';
import { apiCall, apiToken, fillRegistration, login, markPreferencesSet, registerViaApi, setPlan, withDb } from './harness/session';
import { uniqueUser } from './harness/browser';
import { browserSuite } from './harness/suite';

const { newPage } = browserSuite();

/** A verified free user with preferences set (so no first-time popup covers the screens). */
async function freeUser(label: string) {
  const user = uniqueUser(label);
  await registerViaApi(user);
  await markPreferencesSet(user.email);
  return user;
}

/** Plays Stripe's side: confirms a payment intent with a test card, as Stripe.js would for the customer. */
async function confirmAtStripe(clientSecret: string, card = 'pm_card_visa'): Promise<void> {
  const intent = clientSecret.split('_secret_')[0]!;
  const res = await fetch(`${inject('stripeUrl')}/v1/payment_intents/${intent}/confirm`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${inject('stripeSecretKey')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ payment_method: card }),
  });
  if (!res.ok) throw new Error(`confirm failed: ${res.status} ${await res.text()}`);
}

/** A user who paid for `plan` through the API and Stripe, with the plan applied by the webhook. */
async function paidUser(label: string, plan: 'basic' | 'standard' | 'advanced') {
  const user = await freeUser(label);
  const token = await apiToken(user);
  const { body } = await apiCall<{ clientSecret: string }>(token, 'POST', '/api/subscription', { plan });
  await confirmAtStripe(body.clientSecret);
  await expect.poll(async () => (await apiCall<{ planType: string }>(token, 'GET', '/api/user')).body.planType, { timeout: 15_000 }).toBe(plan);
  return user;
}

/** A call to the Stripe stand-in with the secret key, as Stripe's dashboard or CLI would make it. */
async function stripeCall<T>(path: string, params: Record<string, string>): Promise<T> {
  const res = await fetch(`${inject('stripeUrl')}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${inject('stripeSecretKey')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params),
  });
  if (!res.ok) throw new Error(`${path} failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function fillCard(page: Page, number: string): Promise<void> {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiration date').fill('12 / 34');
  await page.getByLabel('Security code').fill('123');
}

describe('subscription and payment', () => {
  it('opens the plan from the link after 500 ms, refuses a declined card, then pays and moves the account to Standard', async () => {
    const user = await freeUser('payer');
    const { page } = await newPage();
    await login(page, user);
    await page.goto('/subscription?plan=standard');
    const dialog = page.getByRole('dialog', { name: 'Complete Your Payment' });
    await dialog.waitFor();
    await dialog.getByLabel('Card number').waitFor();
    await captureScreen(page, 'subscription-payment');

    await fillCard(page, '4000 0000 0000 0002');
    await dialog.getByRole('button', { name: 'Subscribe Now' }).click();
    await page.getByText('Payment Failed', { exact: true }).waitFor();
    await page.getByText('Your card was declined.').first().waitFor();
    expect(await page.getByTestId('plan-label').textContent()).toBe('Free Plan');

    await fillCard(page, '4242 4242 4242 4242');
    await dialog.getByRole('button', { name: 'Subscribe Now' }).click();
    await page.getByText('Payment Successful', { exact: true }).waitFor();
    await expect.poll(() => page.getByTestId('plan-label').textContent(), { timeout: 15_000 }).toBe('Standard Monitoring');
    await page.getByTestId('plan-renewal').waitFor();
    expect(await dialog.count()).toBe(0);
    // The current plan's button is disabled now; the others still sell.
    const standard = page.getByTestId('plan-card-standard').getByRole('button');
    expect(await standard.textContent()).toBe('Current Plan');
    expect(await standard.isDisabled()).toBe(true);
    expect(await page.getByTestId('plan-card-advanced').getByRole('button').textContent()).toBe('Subscribe Now');
    // The in-app comparison adds its advanced-only row (part 2 §6); the public one leaves it out (last test).
    const gmd = page.locator('tr').filter({ has: page.getByRole('rowheader', { name: 'GMD domain reputation scoring', exact: true }) });
    expect(await gmd.getByLabel('Not included', { exact: true }).count()).toBe(3);
    expect(await gmd.getByLabel('Included', { exact: true }).count()).toBe(1);
    expect(await gmd.locator('td').last().getByLabel('Included', { exact: true }).count()).toBe(1);
    await captureScreen(page, 'subscription');
  });

  it('shows the invoice in the billing history, with its hosted page and its PDF as invoice-{number}.pdf', async () => {
    const user = await paidUser('invoices', 'basic');
    const { page } = await newPage();
    await login(page, user);
    await page.getByRole('link', { name: 'Billing History' }).click();
    await page.waitForURL('**/billing');
    const row = page.getByTestId('invoice-row');
    await row.waitFor();
    expect(await row.count()).toBe(1);
    expect(await page.getByTestId('billing-summary').textContent()).toContain('A$19.00');
    const number = (await row.locator('.font-medium').first().textContent())!;
    expect(number).toMatch(/^SW-\d{4}$/);
    expect(await row.getByRole('link', { name: /View/ }).getAttribute('href')).toMatch(/\/invoices\/in_/);
    await captureScreen(page, 'billing-history');

    const download = page.waitForEvent('download');
    await row.getByRole('button', { name: /Download/ }).click();
    expect((await download).suggestedFilename()).toBe(`invoice-${number}.pdf`);
    await page.getByText('Download started', { exact: true }).waitFor();
  });

  it('verifies a payment on the return screen, polling until the plan arrives', async () => {
    const user = await freeUser('return');
    const { page } = await newPage();
    await login(page, user);
    const token = await apiToken(user);
    const { body } = await apiCall<{ clientSecret: string }>(token, 'POST', '/api/subscription', { plan: 'advanced' });
    await page.goto('/subscription/confirmation');
    await page.getByRole('heading', { name: 'Verifying Payment...' }).waitFor();
    await confirmAtStripe(body.clientSecret);
    await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor({ timeout: 15_000 });
    await captureScreen(page, 'subscription-confirmation');
    await page.getByRole('link', { name: 'Add Domains' }).click();
    await page.waitForURL('**/domains');
  });

  it('syncs a subscription the account missed, updates the card, switches plan and cancels from Settings, each after a confirmation', async () => {
    const user = await paidUser('settings-billing', 'basic');
    const { page } = await newPage();
    await login(page, user);
    // A plan the webhook failed to apply (set after the sign-in, well after the payment's events): the
    // account reads free but keeps its subscription, so Settings offers the sync.
    await setPlan(user.email, 'free');
    await page.goto('/settings');
    const sync = page.getByRole('button', { name: 'Sync subscription' });
    await sync.waitFor();
    expect(await page.getByTestId('plan-label').textContent()).toBe('Free Plan');
    // The plan in the sync's answer is applied at once: no re-read of the user is needed for it.
    const userReads: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/user') userReads.push(r.url());
    });
    await sync.click();
    await page.getByText('Subscription Synced', { exact: true }).waitFor();
    await expect.poll(() => page.getByTestId('plan-label').textContent()).toBe('Basic Monitoring');
    expect(userReads).toEqual([]);
    await page.getByText('ending in 4242').waitFor();
    await page.getByRole('link', { name: 'Update' }).click();
    await page.waitForURL('**/update-payment');
    await page.getByLabel('Card number').waitFor();
    await captureScreen(page, 'update-payment');
    await fillCard(page, '5555 5555 5555 4444');
    await page.getByRole('button', { name: 'Update Payment Method' }).click();
    await page.waitForURL('**/settings');
    await page.getByText('ending in 4444').waitFor();

    await page.getByRole('button', { name: /Switch to Advanced Monitoring/ }).click();
    const confirm = page.getByRole('dialog', { name: 'Switch to Advanced Monitoring?' });
    await confirm.getByRole('button', { name: 'Switch plan' }).click();
    await page.getByText('Plan Updated', { exact: true }).waitFor();
    await expect.poll(() => page.getByTestId('plan-label').textContent(), { timeout: 15_000 }).toBe('Advanced Monitoring');

    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    await page.getByRole('dialog', { name: 'Cancel your subscription?' }).getByRole('button', { name: 'Cancel subscription' }).click();
    await page.getByText('Subscription Cancelled', { exact: true }).waitFor();
    await expect.poll(() => page.getByTestId('plan-renewal').textContent()).toMatch(/^Ends /);
  });

  it('takes "Choose Standard" on the landing page through sign-up and the mailed link to the payment dialog', async () => {
    const user = uniqueUser('choose');
    const { page } = await newPage();
    await page.goto('/');
    await page.locator('#pricing').scrollIntoViewIfNeeded();
    await page.getByRole('link', { name: 'Choose Standard' }).click();
    await page.waitForURL('**/register?plan=standard');
    await fillRegistration(page, user);
    await page.getByRole('heading', { name: 'Check Your Email' }).waitFor();

    const mail = await waitForMail(inject('mailboxUrl'), user.email, /verif/i);
    const link = new URL(linkFromMail(mail, '/verify-email'));
    await page.goto(new URL(link.pathname + link.search, inject('baseUrl')).toString());
    await page.getByText('Taking you to the payment for Standard Monitoring…').waitFor();
    await page.waitForURL('**/subscription?plan=standard', { timeout: 15_000 });
    await page.getByRole('dialog', { name: 'Complete Your Payment' }).getByLabel('Card number').waitFor();
  });

  it('warns on every screen when a renewal failed, with the way to a new card', async () => {
    // A customer on a test clock, so the renewal can be reached; billing finds it on the user.
    const user = await freeUser('past-due');
    const now = Math.floor(Date.now() / 1000);
    const clock = await stripeCall<{ id: string }>('/v1/test_helpers/test_clocks', { frozen_time: String(now) });
    const customer = await stripeCall<{ id: string }>('/v1/customers', { email: user.email, test_clock: clock.id });
    await withDb((db) => db.updateTable('users').set({ stripeCustomerId: customer.id }).where('email', '=', user.email).execute());
    const token = await apiToken(user);
    const { body } = await apiCall<{ clientSecret: string; subscriptionId: string }>(token, 'POST', '/api/subscription', { plan: 'basic' });
    await confirmAtStripe(body.clientSecret);
    const declining = await stripeCall<{ id: string }>('/v1/payment_methods/pm_card_chargeDeclined/attach', { customer: customer.id });
    await stripeCall(`/v1/subscriptions/${body.subscriptionId}`, { default_payment_method: declining.id });
    await stripeCall(`/v1/test_helpers/test_clocks/${clock.id}/advance`, { frozen_time: String(now + 31 * 86_400) });
    await expect.poll(async () => (await apiCall<{ status: string }>(token, 'GET', '/api/subscription/status')).body.status, { timeout: 15_000 }).toBe('past_due');

    const { page } = await newPage();
    await login(page, user);
    const banner = page.getByRole('alert').filter({ hasText: 'Your last payment failed' });
    await banner.waitFor();
    expect(await page.getByTestId('plan-label').textContent()).toBe('Basic Monitoring');
    expect(await page.getByTestId('plan-renewal').count()).toBe(0);
    await captureScreen(page, 'past-due');
    await banner.getByRole('link', { name: 'Update your card' }).click();
    await page.waitForURL('**/update-payment');
  });

  it('keeps free users off the paid screens, and shows the plans to anyone', async () => {
    const user = await freeUser('free-billing');
    const { page } = await newPage();
    await login(page, user);
    await page.goto('/update-payment');
    await page.waitForURL('**/settings');
    await page.goto('/billing-history');
    await page.getByTestId('billing-empty').waitFor();

    const visitor = (await newPage()).page;
    await visitor.goto('/subscription-comparison');
    await visitor.getByRole('table').waitFor();
    expect(await visitor.getByRole('rowheader', { name: 'GMD domain reputation scoring' }).count()).toBe(0);
    await captureScreen(visitor, 'subscription-comparison');
    await visitor.getByRole('link', { name: 'Sign Up' }).click();
    await visitor.waitForURL('**/register');
  });
});
